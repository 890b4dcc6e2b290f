import { Link } from '@remix-run/react';
import { ChevronIcon } from '~/components/icons';
import { monthKey, monthWeeks, shiftMonth } from '~/domain/sensor-settings';
import { storeUrl } from '~/domain/urls';

// The alert-stop tab (001 §2): a month calendar, Sunday first, with today / previous / next and
// the days on which an alert-stop schedule is in force highlighted; a day opens the alert-stop
// list of that date (start and end equal). Plain links: it works without JavaScript.

const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'];

export function AlertStopCalendar({ storeId, year, month, today, scheduledDays }: { storeId: string; year: number; month: number; today: string; scheduledDays: readonly string[] }) {
  const scheduled = new Set(scheduledDays);
  const monthHref = (target: { year: number; month: number }) => storeUrl.sensorSettings(storeId, { tab: 'alert-stop', month: monthKey(target) });
  return (
    <section className="card p-4" aria-label="警報停止時間帯">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <Link to={storeUrl.sensorSettings(storeId, { tab: 'alert-stop' })} className="btn-secondary px-3 py-1.5 text-sm">今日</Link>
        <Link to={monthHref(shiftMonth({ year, month }, -1))} className="btn-secondary px-2 py-1.5" aria-label="前の月">
          <ChevronIcon direction="left" className="h-4 w-4" />
        </Link>
        <Link to={monthHref(shiftMonth({ year, month }, 1))} className="btn-secondary px-2 py-1.5" aria-label="次の月">
          <ChevronIcon direction="right" className="h-4 w-4" />
        </Link>
        <h2 className="text-lg font-semibold text-slate-800" data-testid="calendar-title">{`${year}年 ${month}月`}</h2>
        <p className="ml-auto flex items-center gap-2 text-xs text-slate-500">
          <span className="inline-block h-3 w-3 rounded-sm bg-amber-200 ring-1 ring-amber-400" aria-hidden />
          <span className="sm:hidden">停止: </span>警報停止時間帯あり
        </p>
      </div>
      <table className="w-full table-fixed border-collapse text-sm">
        <thead>
          <tr>
            {WEEKDAYS.map((day, index) => (
              <th key={day} scope="col" className={`py-2 text-xs font-semibold ${index === 0 ? 'text-red-600' : index === 6 ? 'text-blue-600' : 'text-slate-500'}`}>
                {day}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(year, month).map((week, row) => (
            <tr key={row}>
              {week.map((day, column) => (
                <td key={day ?? `empty-${row}-${column}`} className="relative h-20 border border-slate-100 p-1 align-top">
                  {day && (
                    <Link
                      to={storeUrl.alertStops(storeId, day, day)}
                      data-day={day}
                      data-scheduled={scheduled.has(day) ? '1' : undefined}
                      aria-label={`${Number(day.slice(4, 6))}月${Number(day.slice(6, 8))}日${scheduled.has(day) ? ' 警報停止時間帯あり' : ''}`}
                      className={`flex h-full w-full flex-col rounded-md p-1.5 hover:ring-2 hover:ring-brand-300 ${scheduled.has(day) ? 'bg-amber-100 ring-1 ring-amber-300' : ''}`}
                    >
                      <span
                        className={`inline-flex h-6 w-6 items-center justify-center rounded-full text-xs ${day === today ? 'bg-brand-600 font-bold text-white' : column === 0 ? 'text-red-700' : column === 6 ? 'text-blue-700' : 'text-slate-700'}`}
                      >
                        {Number(day.slice(6, 8))}
                      </span>
                    </Link>
                  )}
                  {day && scheduled.has(day) && (
                    // A caption beside the link, not in it: the link's name says it in full, and a
                    // visible word inside the link would have to be part of that name (WCAG 2.5.3).
                    // A phone's day is too narrow for 停止あり on one line: 停止 there, with the legend.
                    <span className="pointer-events-none absolute bottom-2.5 left-2.5 whitespace-nowrap text-[11px] leading-tight text-amber-900" aria-hidden data-testid="stop-mark">
                      <span className="sm:hidden">停止</span>
                      <span className="hidden sm:inline">停止あり</span>
                    </span>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
