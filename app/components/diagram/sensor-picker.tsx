import { useEffect } from 'react';
import { CheckIcon, CloseIcon, TrashIcon } from '~/components/icons';
import { DIAGRAM_MESSAGES } from '~/domain/diagram';
import { LocationNo } from '~/components/sensors/location-no';

export interface PickerSensor {
  equipmentId: number;
  equipmentName: string;
  locationNo: number | null;
  placed: boolean;
  /** false when it would be the 21st sensor on the map. */
  placeable: boolean;
}

interface SensorPickerProps {
  /** The placed sensor that was clicked (its popup), or null after a click on the map. */
  selected: PickerSensor | null;
  /** The sensors to choose from, in location order. */
  choices: readonly PickerSensor[];
  limitReached: boolean;
  onChoose: (equipmentId: number) => void;
  onRemove: () => void;
  onClose: () => void;
}

/**
 * The placement popup (000 §4): after a click on the map, the list of sensors to place there
 * (placed ones marked selected); after a click on a placed sensor, that sensor with a remove
 * button and the list to swap it with. Escape closes it.
 */
export function SensorPicker({ selected, choices, limitReached, onChoose, onRemove, onClose }: SensorPickerProps) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div role="dialog" aria-label={selected ? '配置済みのセンサ' : 'センサを選択'} className="w-72 overflow-hidden rounded-lg border border-slate-200 bg-white text-sm shadow-xl" data-testid="sensor-picker">
      <div className="flex items-center justify-between border-b border-slate-200 bg-slate-50 px-3 py-2">
        <span className="font-semibold text-slate-700">{selected ? '配置済みのセンサ' : 'センサを選択'}</span>
        <button type="button" aria-label="閉じる" className="rounded p-0.5 text-slate-500 hover:bg-slate-200" onClick={onClose}>
          <CloseIcon className="h-4 w-4" />
        </button>
      </div>
      {selected && (
        <div className="border-b border-slate-200 px-3 py-2">
          <p className="mb-1 text-xs text-slate-500">選択中のセンサ</p>
          <div className="flex items-center gap-2">
            <CheckIcon className="h-4 w-4 shrink-0 text-brand-600" />
            <LocationNo value={selected.locationNo} className="text-slate-500" />
            <span className="min-w-0 flex-1 truncate font-medium text-slate-800">{selected.equipmentName}</span>
            <button type="button" className="inline-flex items-center gap-1 rounded-md border border-red-200 px-2 py-1 text-xs font-semibold text-red-600 hover:bg-red-50" onClick={onRemove}>
              <TrashIcon className="h-3.5 w-3.5" />
              削除
            </button>
          </div>
        </div>
      )}
      {selected && choices.length > 0 && <p className="px-3 pt-2 text-xs text-slate-500">入れ替えるセンサ</p>}
      {choices.length === 0 ? (
        !selected && <p className="px-3 py-6 text-center text-slate-500">{DIAGRAM_MESSAGES.noSensors}</p>
      ) : (
        <ul role="listbox" aria-label="センサ一覧" className="max-h-60 overflow-y-auto py-1">
          {choices.map((sensor) => (
            <li key={sensor.equipmentId}>
              <button
                type="button"
                role="option"
                aria-selected={sensor.placed}
                disabled={!sensor.placeable}
                className="flex w-full items-center gap-2 px-3 py-1.5 text-left hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-45 disabled:hover:bg-transparent"
                onClick={() => onChoose(sensor.equipmentId)}
              >
                <span className={`flex h-4 w-4 shrink-0 items-center justify-center rounded border ${sensor.placed ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300 bg-white'}`} aria-hidden>
                  {sensor.placed && <CheckIcon className="h-3 w-3" />}
                </span>
                <LocationNo value={sensor.locationNo} className="text-slate-500" />
                <span className="min-w-0 flex-1 truncate text-slate-800">{sensor.equipmentName}</span>
                {sensor.placed && <span className="shrink-0 text-[10px] font-semibold text-brand-700">配置済み</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {limitReached && <p className="border-t border-slate-200 bg-amber-50 px-3 py-2 text-xs text-amber-800">{DIAGRAM_MESSAGES.limitReached}</p>}
    </div>
  );
}
