import { Link } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { FurnitureIcon } from '~/components/icons';
import { formatTemperature, MISSING_TEXT } from '~/domain/format';
import { furnitureLabel } from '~/domain/furniture-kinds';
import { GRAPH_TEXTS } from '~/domain/graph';

export interface MenuSensor {
  equipmentId: number;
  equipmentName: string;
  iconKind: number;
  lowerLimit: number | null;
  upperLimit: number | null;
  commentRequired: boolean;
  colour: string;
}

interface SensorMenuProps {
  sensors: MenuSensor[];
  selected: ReadonlySet<number>;
  /** The checkboxes' name (the panel's equipment_id parameter), for the form without JavaScript. */
  fieldName: string;
  /** The page's URL with this panel showing the given sensors. */
  hrefFor: (equipmentIds: number[]) => string;
  onChange: (equipmentIds: number[]) => void;
}

const limitText = (value: number | null) => (value === null ? MISSING_TEXT : formatTemperature(value));

/**
 * The panel's right side menu (000 §2): the furniture kinds of the store as icons (a click checks
 * that kind's sensors, or unchecks them when all are checked), then every sensor with a checkbox
 * and its colour from the fixed palette.
 */
export function SensorMenu({ sensors, selected, fieldName, hrefFor, onChange }: SensorMenuProps) {
  const listRef = useRef<HTMLUListElement>(null);
  // Opened from a link (equipment_id), the checked sensor is brought into the list's view once.
  useEffect(() => {
    const list = listRef.current;
    const item = list?.querySelector<HTMLElement>('input:checked')?.closest('li');
    if (list && item && (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight)) {
      list.scrollTop = item.offsetTop - list.clientHeight / 3;
    }
  }, []);
  const kinds = [...new Set(sensors.map((sensor) => sensor.iconKind))].sort((a, b) => a - b);
  const inStoreOrder = (ids: Set<number>) => sensors.filter((sensor) => ids.has(sensor.equipmentId)).map((sensor) => sensor.equipmentId);
  const toggledKind = (kind: number) => {
    const ofKind = sensors.filter((sensor) => sensor.iconKind === kind).map((sensor) => sensor.equipmentId);
    const next = new Set(selected);
    const allOn = ofKind.every((id) => selected.has(id));
    for (const id of ofKind) {
      if (allOn) next.delete(id);
      else next.add(id);
    }
    return inStoreOrder(next);
  };
  const toggled = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return inStoreOrder(next);
  };
  return (
    <div className="flex h-full flex-col text-sm">
      <h3 className="px-3 pb-1.5 pt-3 text-xs font-semibold tracking-wider text-slate-500">{GRAPH_TEXTS.kinds}</h3>
      <ul className="flex flex-wrap gap-1.5 px-3 pb-3" aria-label={GRAPH_TEXTS.kinds}>
        {kinds.map((kind) => {
          const ofKind = sensors.filter((sensor) => sensor.iconKind === kind);
          const on = ofKind.every((sensor) => selected.has(sensor.equipmentId));
          const label = furnitureLabel(kind);
          return (
            <li key={kind}>
              <Link
                to={hrefFor(toggledKind(kind))}
                preventScrollReset
                replace
                title={`${label}（${ofKind.length}）`}
                aria-label={label}
                // A link (it works without JavaScript), so no aria-pressed: the kinds shown are the current ones.
                aria-current={on ? 'true' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  onChange(toggledKind(kind));
                }}
                className={`flex h-9 w-9 items-center justify-center rounded-md border ${
                  on ? 'border-brand-500 bg-brand-50 text-brand-700' : 'border-slate-200 bg-white text-slate-500 hover:bg-slate-50'
                }`}
              >
                <FurnitureIcon kind={kind} className="h-5 w-5" />
              </Link>
            </li>
          );
        })}
      </ul>
      <h3 className="border-t border-slate-100 px-3 pb-1.5 pt-3 text-xs font-semibold tracking-wider text-slate-500">
        {GRAPH_TEXTS.sensors}
        <span className="ml-1.5 font-normal text-slate-400">
          {selected.size} / {sensors.length}
        </span>
      </h3>
      {/* An empty value first: with every box unchecked the form still says "none" rather than "default". */}
      <input type="hidden" name={fieldName} value="" />
      <ul ref={listRef} className="relative min-h-0 flex-1 space-y-0.5 overflow-y-auto px-1.5 pb-3" aria-label={GRAPH_TEXTS.sensors}>
        {sensors.map((sensor) => (
          <li key={sensor.equipmentId} className="flex items-center gap-1">
            <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 rounded-md px-1.5 py-1 hover:bg-slate-50">
              <input
                type="checkbox"
                name={fieldName}
                value={sensor.equipmentId}
                checked={selected.has(sensor.equipmentId)}
                onChange={() => onChange(toggled(sensor.equipmentId))}
                className="h-4 w-4 shrink-0 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
              />
              <span className="h-1 w-4 shrink-0 rounded-full" style={{ backgroundColor: sensor.colour }} aria-hidden />
              <FurnitureIcon kind={sensor.iconKind} className="h-4 w-4 shrink-0 text-slate-400" />
              <span className="min-w-0 flex-1">
                <span className="block truncate text-[13px] text-slate-700" title={sensor.equipmentName}>
                  {sensor.equipmentName}
                </span>
                <span className="block text-[11px] leading-tight text-slate-500">
                  {limitText(sensor.lowerLimit)}〜{limitText(sensor.upperLimit)}℃{sensor.commentRequired ? '・コメント可' : ''}
                </span>
              </span>
            </label>
            {/* One line at a time, in one tap (issue 33 item 4: 14 lines overlaid hide the point to comment on). */}
            <Link
              to={hrefFor([sensor.equipmentId])}
              preventScrollReset
              replace
              aria-label={GRAPH_TEXTS.onlyThisLabel(sensor.equipmentName)}
              onClick={(event) => {
                event.preventDefault();
                onChange([sensor.equipmentId]);
              }}
              className="inline-flex h-8 min-w-[2.5rem] shrink-0 items-center justify-center rounded-md border border-slate-200 px-2 text-xs text-slate-600 hover:bg-slate-50"
            >
              {GRAPH_TEXTS.onlyThis}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
