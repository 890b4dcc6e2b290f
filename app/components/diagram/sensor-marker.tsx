import { FurnitureIcon, WarningIcon } from '~/components/icons';
import { type MarkerReading, type MarkerView, markerView } from '~/domain/diagram';
import { formatDegrees } from '~/domain/format';
import { StaleReading } from '~/components/sensors/stale-reading';

export interface MarkerSensor extends MarkerReading {
  equipmentId: number;
  equipmentName: string;
  iconKind: number;
}

const BORDER: Record<MarkerView['statusTone'], string> = {
  normal: 'border-emerald-500',
  warning: 'border-amber-500',
  error: 'border-red-600',
  nodata: 'border-slate-300',
};

const TEXT: Record<MarkerView['tone'], string> = {
  value: 'text-slate-800',
  error: 'font-extrabold tracking-wide text-red-600',
  def: 'tracking-wide text-sky-700',
  missing: 'text-slate-400',
};


/**
 * A sensor on the store diagram: its temperature, name and furniture icon in a card bordered
 * by its status colour; over its limits the temperature turns red on a red tint.
 */
export function SensorMarker({ sensor, staleAge }: { sensor: MarkerSensor; staleAge?: string }) {
  const view = markerView(sensor);
  const limits = `下限 ${formatDegrees(sensor.lowerLimit)} / 上限 ${formatDegrees(sensor.upperLimit)}`;
  return (
    <div
      className={`relative flex min-w-[5.75rem] max-w-[9.5rem] flex-col items-center rounded-lg border-2 px-2 pb-1 pt-1 shadow-md ${BORDER[view.statusTone]} ${view.over ? 'bg-red-50 ring-2 ring-red-400/60' : 'bg-white/95'}`}
      title={[sensor.equipmentName, limits, ...view.alerts].join('\n')}
      data-testid="sensor-marker"
      data-equipment-id={sensor.equipmentId}
      data-status={view.statusTone}
      data-over={view.over || undefined}
    >
      <span className="flex items-center gap-1">
        <FurnitureIcon kind={sensor.iconKind} className="h-4 w-4 shrink-0 text-slate-500" />
        <span className={`text-base font-bold leading-tight tabular-nums ${staleAge ? 'text-slate-500' : view.over ? 'text-red-700' : TEXT[view.tone]}`}>
          {view.text}
          {view.unit && <span className="ml-0.5 text-[11px] font-semibold">{view.unit}</span>}
        </span>
      </span>
      <span className="max-w-full truncate text-[11px] font-medium leading-tight text-slate-600">{sensor.equipmentName}</span>
      <StaleReading age={staleAge} />
      {view.warning && (
        <span className="absolute -right-2.5 -top-2.5 rounded-full bg-white p-0.5 shadow">
          <WarningIcon severity={view.warning} className="h-4 w-4" title={view.alerts.join('、') || (view.warning === 2 ? '警報' : '注意')} />
        </span>
      )}
    </div>
  );
}

/** What the marker colours mean. */
export function MarkerLegend() {
  const items: [string, string][] = [
    ['border-emerald-500 bg-white', '正常'],
    ['border-amber-500 bg-white', '注意'],
    ['border-red-600 bg-white', '警報'],
    ['border-slate-300 bg-white', '未受信'],
    ['border-slate-300 bg-red-50 ring-2 ring-red-400/60', 'しきい値外'],
  ];
  return (
    <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="センサ表示の凡例">
      {items.map(([style, label]) => (
        <li key={label} className="flex items-center gap-1.5">
          <span className={`inline-block h-3 w-5 rounded border-2 ${style}`} aria-hidden />
          {label}
        </li>
      ))}
    </ul>
  );
}
