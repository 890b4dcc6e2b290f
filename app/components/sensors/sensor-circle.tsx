import { FurnitureIcon, WarningIcon } from '~/components/icons';
import { furnitureLabel } from '~/domain/furniture-kinds';
import { NO_BAND_COLOUR, bandStyle, colourBand, displayLimit, isOverThreshold } from '~/domain/levels';
import { type StoreSensor, warningSeverity } from '~/domain/sensor-view';
import { StaleReading } from './stale-reading';
import { TemperatureText } from './temperature-text';

/**
 * One sensor of the image view (000 §2): a circle ringed in its band's colour with the furniture
 * icon, the temperature, the lower and upper limits and, beside it, the warning icon; the
 * equipment name below. Over threshold, the circle turns red. A click opens the detail popup.
 */
export function SensorCircle({ sensor, staleAge, selected, onOpen }: { sensor: StoreSensor; staleAge?: string; selected: boolean; onOpen: (anchor: HTMLElement) => void }) {
  const band = bandStyle(colourBand(sensor.upper_limit));
  const over = isOverThreshold(sensor.temperature, sensor.lower_limit, sensor.upper_limit);
  const severity = warningSeverity(sensor.status, sensor.temperature, sensor.alerts.map((alert) => alert.alert_id));
  const hidden = sensor.disp_flg === 0;
  return (
    <li className="flex justify-center">
      <button
        type="button"
        onClick={(event) => onOpen(event.currentTarget)}
        aria-haspopup="dialog"
        aria-expanded={selected}
        data-equipment-id={sensor.equipment_id}
        data-over={over || undefined}
        className={`group flex w-40 flex-col items-center rounded-xl px-1 pb-2 pt-1 text-center outline-none transition hover:bg-white/70 focus-visible:ring-2 focus-visible:ring-brand-500 ${hidden ? 'opacity-60' : ''}`}
      >
        <span
          className={`relative flex h-32 w-32 flex-col items-center justify-center rounded-full border-[6px] shadow-sm transition group-hover:shadow-md ${over ? 'ring-4 ring-red-500/35' : ''} ${selected ? 'ring-4 ring-brand-500/40' : ''} ${hidden ? 'border-dashed' : ''}`}
          style={{ borderColor: band?.colour ?? NO_BAND_COLOUR, backgroundColor: over ? '#fef2f2' : (band?.tint ?? '#f8fafc') }}
        >
          <span className="mb-1" style={{ color: band?.colour ?? NO_BAND_COLOUR }}>
            <FurnitureIcon kind={sensor.icon_kind} className="h-6 w-6" title={furnitureLabel(sensor.icon_kind)} />
          </span>
          <TemperatureText temperature={sensor.temperature} over={over} stale={Boolean(staleAge)} />
          <span className="mt-1.5 flex items-center gap-1 text-[11px] tabular-nums leading-none text-slate-500" aria-label={`下限 ${displayLimit(sensor.lower_limit)} 上限 ${displayLimit(sensor.upper_limit)}`}>
            <span title="下限">{displayLimit(sensor.lower_limit)}</span>
            <span aria-hidden>/</span>
            <span title="上限">{displayLimit(sensor.upper_limit)}</span>
          </span>
          {severity && (
            <span className="absolute -right-1 -top-1 rounded-full bg-white p-0.5 shadow" data-severity={severity}>
              <WarningIcon severity={severity} className="h-6 w-6" title={severity === 2 ? '警報' : '注意'} />
            </span>
          )}
        </span>
        <span className="mt-2 line-clamp-2 text-sm font-medium leading-snug text-slate-700">
          {sensor.equipment_name}
          {hidden && <span className="ml-1 rounded bg-slate-200 px-1 text-[10px] text-slate-600">非表示</span>}
        </span>
        <StaleReading age={staleAge} />
      </button>
    </li>
  );
}
