import { Link, useSearchParams } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { ChevronIcon, FurnitureIcon } from '~/components/icons';
import type { CategorySelection, SensorCategory } from '~/domain/alert-history';
import { categorySearch } from './links';

/** Where the categories become a side menu (lg, as the page's layout and tailwind.css have it). */
const SIDE_MENU_QUERY = '(min-width: 1024px)';

/**
 * The side category menu: all of the store (gateway alerts included), then each furniture kind
 * present in the store with its sensors. Plain links, so it works without JavaScript.
 */
export function CategoryMenu({ categories, selection }: { categories: SensorCategory[]; selection: CategorySelection }) {
  const [searchParams] = useSearchParams();
  const disclosure = useRef<HTMLDetailsElement>(null);
  // From 1024 px the list is a side menu: open it for real once hydrated (the CSS has shown it
  // already), so its links are in the Tab order and the accessibility tree of every browser.
  useEffect(() => {
    if (disclosure.current && window.matchMedia(SIDE_MENU_QUERY).matches) disclosure.current.open = true;
  }, []);
  const single = selection.type === 'sensors' && selection.equipmentIds.length === 1 ? selection.equipmentIds[0] : null;
  const item = (active: boolean) =>
    `flex items-center gap-2 rounded-md px-2.5 py-1.5 text-sm ${active ? 'bg-brand-50 font-semibold text-brand-700' : 'text-slate-700 hover:bg-slate-100'}`;
  return (
    <nav aria-label="カテゴリ" className="card p-3">
      {/* On phones a disclosure that shows the current category (the list would push the alerts 1,500 px down); from 1024 px always open (tailwind.css). */}
      <details ref={disclosure} className="category-disclosure">
        <summary className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md px-2.5 text-sm text-slate-700 hover:bg-slate-100">
          <span className="text-xs font-semibold tracking-wider text-slate-500">カテゴリ</span>
          <span className="min-w-0 flex-1 truncate font-semibold text-brand-700">{selectionLabel(categories, selection)}</span>
          <ChevronIcon direction="down" className="h-4 w-4 shrink-0 text-slate-500" />
        </summary>
        <h2 className="category-heading mb-2 hidden px-2.5 text-xs font-semibold tracking-wider text-slate-500">カテゴリ</h2>
        <ul className="space-y-0.5">
          <li>
            <Link to={categorySearch(searchParams, {})} className={item(selection.type === 'all')} aria-current={selection.type === 'all' ? 'page' : undefined}>
              <span className="flex h-5 w-5 items-center justify-center text-xs font-bold text-slate-500" aria-hidden>全</span>
              すべて
            </Link>
          </li>
          {categories.map((category) => {
            const kindActive = selection.type === 'kind' && selection.kind === category.kind;
            return (
              <li key={category.kind} className="pt-1">
                <Link
                  to={categorySearch(searchParams, { kind: category.kind })}
                  className={item(kindActive)}
                  aria-current={kindActive ? 'page' : undefined}
                >
                  <FurnitureIcon kind={category.kind} className="h-5 w-5 shrink-0 text-slate-500" />
                  <span className="min-w-0 flex-1 truncate" title={category.label}>{category.label}</span>
                  <span className="text-xs font-normal text-slate-400">{category.sensors.length}</span>
                </Link>
                <ul className="ml-5 border-l border-slate-200 pl-2">
                  {category.sensors.map((sensor) => {
                    const active = single === sensor.equipmentId;
                    return (
                      <li key={sensor.equipmentId}>
                        <Link
                          to={categorySearch(searchParams, { equipmentId: sensor.equipmentId })}
                          className={`${item(active)} py-1 text-[13px]`}
                          aria-current={active ? 'page' : undefined}
                                >
                          <span className="min-w-0 truncate" title={sensor.equipmentName}>{sensor.equipmentName}</span>
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              </li>
            );
          })}
        </ul>
      </details>
      {categories.length === 0 && <p className="px-2.5 py-2 text-xs text-slate-500">センサが登録されていません</p>}
    </nav>
  );
}

/** What the list shows now: the whole store, a furniture kind, or one sensor. */
function selectionLabel(categories: SensorCategory[], selection: CategorySelection): string {
  if (selection.type === 'kind') return categories.find((category) => category.kind === selection.kind)?.label ?? 'すべて';
  if (selection.type === 'sensors') {
    const names = categories.flatMap((category) => category.sensors).filter((sensor) => selection.equipmentIds.includes(sensor.equipmentId));
    return names.map((sensor) => sensor.equipmentName).join('、') || 'すべて';
  }
  return 'すべて';
}
