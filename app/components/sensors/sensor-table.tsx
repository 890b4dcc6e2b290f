import { Link } from '@remix-run/react';
import { BatteryIcon, FurnitureIcon, SignalIcon, WarningIcon } from '~/components/icons';
import type { Language } from '~/domain/alert-codes';
import { furnitureLabel } from '~/domain/furniture-kinds';
import { formatDateTime, parseCompact } from '~/domain/japan-time';
import { isSensorError, isSensorWarning } from '~/domain/sensor-status';
import { MISSING_SIGNAL_IN_LISTS, MISSING_TEXT, NO_BAND_COLOUR, batteryLevel, bandStyle, colourBand, displayLimit, isOverThreshold, signalLevel } from '~/domain/levels';
import { SORT_KEYS, SORT_LABELS, type SortDirection, type SortKey, type StoreSensor, alertTexts, nextSort, warningSeverity } from '~/domain/sensor-view';
import { LocationNo } from './location-no';
import { StaleReading } from './stale-reading';
import { TemperatureText } from './temperature-text';
import { useStackedTable } from '~/components/page-kit';

interface SortState {
  key: SortKey | null;
  direction: SortDirection;
}

/** The link of a sortable column header: a new column sorts ascending, the current one toggles. */
function sortHref(current: SortState, key: SortKey, includeHidden: boolean): string {
  const next = nextSort(current, key);
  const params = new URLSearchParams({ sort: next.key, order: next.direction });
  if (includeHidden) params.set('include_hidden', '1');
  return `?${params}`;
}

function SortHeader({ sortKey, sort, includeHidden, className = '' }: { sortKey: SortKey; sort: SortState; includeHidden: boolean; className?: string }) {
  const active = sort.key === sortKey;
  return (
    <th scope="col" className={`px-3 py-2 ${className}`} aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <Link to={sortHref(sort, sortKey, includeHidden)} replace preventScrollReset className={`inline-flex items-center gap-1 hover:text-brand-700 ${active ? 'text-brand-700' : ''}`} data-sort-key={sortKey}>
        {SORT_LABELS[sortKey]}
        <span aria-hidden className={`text-[10px] ${active ? '' : 'text-slate-300'}`}>
          {active ? (sort.direction === 'asc' ? '▲' : '▼') : '▲▼'}
        </span>
      </Link>
    </th>
  );
}

/**
 * The list view (000 §2): sortable kind, sensor name (location number + name) and alert columns,
 * with the reading, the limits and the battery and signal beside them. A name opens the popup.
 */
export function SensorTable({ sensors, stale, sort, includeHidden, language, openId, onOpen }: {
  /** The sensors whose reading is stale, with its age. */
  stale: Record<number, string>;
  sensors: StoreSensor[];
  sort: SortState;
  includeHidden: boolean;
  language: Language;
  openId: number | null;
  onOpen: (equipmentId: number, anchor: HTMLElement) => void;
}) {
  const stack = useStackedTable();
  return (
    <div className="card overflow-x-auto">
      <table ref={stack} className="table-stack w-full text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-500">
          <tr>
            {SORT_KEYS.slice(0, 2).map((key) => (
              <SortHeader key={key} sortKey={key} sort={sort} includeHidden={includeHidden} className={key === 'kind' ? 'w-44' : ''} />
            ))}
            <th scope="col" className="px-3 py-2 text-right">温度</th>
            <th scope="col" className="px-3 py-2 text-right">下限 / 上限</th>
            <SortHeader sortKey="alert" sort={sort} includeHidden={includeHidden} className="w-72" />
            <th scope="col" className="px-3 py-2">電池 / 電波</th>
            <th scope="col" className="px-3 py-2">最終測定</th>
          </tr>
        </thead>
        <tbody>
          {sensors.map((sensor) => {
            const band = bandStyle(colourBand(sensor.upper_limit));
            const over = isOverThreshold(sensor.temperature, sensor.lower_limit, sensor.upper_limit);
            const codes = sensor.alerts.map((alert) => alert.alert_id);
            const severity = warningSeverity(sensor.status, sensor.temperature, codes);
            const measuredAt = sensor.measured_at ? parseCompact(sensor.measured_at) : null;
            return (
              <tr key={sensor.equipment_id} className={`border-t border-slate-100 ${over ? 'bg-red-50/70' : ''} ${sensor.disp_flg === 0 ? 'text-slate-400' : ''}`} data-equipment-id={sensor.equipment_id}>
                <td className="px-3 py-2">
                  <span className="flex items-center gap-2">
                    <span style={{ color: band?.colour ?? NO_BAND_COLOUR }}>
                      <FurnitureIcon kind={sensor.icon_kind} className="h-6 w-6" />
                    </span>
                    <span className="text-xs text-slate-600">{furnitureLabel(sensor.icon_kind, language)}</span>
                  </span>
                </td>
                <td className="px-3 py-2">
                  <button
                    type="button"
                    onClick={(event) => onOpen(sensor.equipment_id, event.currentTarget)}
                    aria-haspopup="dialog"
                    aria-expanded={openId === sensor.equipment_id}
                    className="text-left font-medium text-slate-800 hover:text-brand-700 hover:underline"
                  >
                    <LocationNo value={sensor.location_no} className="mr-2 text-slate-400" />
                    {sensor.equipment_name}
                    {sensor.disp_flg === 0 && <span className="ml-1 rounded bg-slate-200 px-1 text-[10px] text-slate-600">非表示</span>}
                  </button>
                </td>
                <td className="px-3 py-2 text-right">
                  <TemperatureText temperature={sensor.temperature} over={over} stale={Boolean(stale[sensor.equipment_id])} size="sm" />
                </td>
                <td className="px-3 py-2 text-right text-xs tabular-nums text-slate-500">
                  {displayLimit(sensor.lower_limit)} / {displayLimit(sensor.upper_limit)}
                </td>
                <td className="px-3 py-2">
                  <span className="flex items-start gap-1.5">
                    {severity ? <WarningIcon severity={severity} className="h-5 w-5 shrink-0" /> : <span className="w-5 shrink-0" />}
                    <span className={`text-xs ${isSensorError(sensor.status) ? 'font-semibold text-red-600' : isSensorWarning(sensor.status) ? 'text-amber-700' : 'text-slate-400'}`}>
                      {codes.length === 0 ? MISSING_TEXT : alertTexts(codes, sensor.status, language).join('、')}
                    </span>
                  </span>
                </td>
                <td className="px-3 py-2">
                  <span className="flex items-center gap-1">
                    <BatteryIcon level={batteryLevel(sensor.battery)} className="h-5 w-5" />
                    <SignalIcon level={signalLevel(sensor.receive_sensitivity ?? MISSING_SIGNAL_IN_LISTS)} className="h-5 w-5" />
                  </span>
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-xs tabular-nums text-slate-500">
                  {measuredAt ? formatDateTime(measuredAt) : MISSING_TEXT}
                  <span className="ml-1.5">
                    <StaleReading age={stale[sensor.equipment_id]} />
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
