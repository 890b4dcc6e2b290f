import { Link, useNavigate, useSearchParams } from '@remix-run/react';
import type { AlertHistoryRowView, AlertState } from '~/domain/alert-history';
import { ALERT_STATE_LABELS } from '~/domain/alert-history';
import { searchWith } from './links';
import { useStackedTable } from '~/components/page-kit';

const STATE_STYLE: Record<AlertState, string> = {
  active: 'bg-red-50 text-red-700 ring-red-200',
  stopped: 'bg-amber-50 text-amber-800 ring-amber-200',
  recovered: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
};

/**
 * The list. A row of an upper or lower limit alert opens the graph of its sensor on its day;
 * the stop button shows only on the latest active, unstopped record of its pair (000 §4).
 */
export function HistoryTable({ rows }: { rows: AlertHistoryRowView[] }) {
  const stack = useStackedTable();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  return (
    <div className="overflow-x-auto">
      <table ref={stack} className="table-stack w-full min-w-[40rem] text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-500">
          <tr>
            <th className="w-32 px-3 py-2">発生日時</th>
            <th className="px-3 py-2">センサ名</th>
            <th className="px-3 py-2">警報内容</th>
            <th className="px-3 py-2 text-right">
              温度<span className="block font-normal">下限 / 上限</span>
            </th>
            <th className="w-44 px-3 py-2 xl:w-52">状態</th>
            <th className="w-14 px-2 py-2"><span className="sr-only">操作</span></th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const href = row.graphHref;
            return (
              <tr
                key={row.id}
                data-history-id={row.id}
                className={`border-t border-slate-100 align-top ${href ? 'cursor-pointer hover:bg-brand-50' : ''}`}
                onClick={href ? () => navigate(href) : undefined}
              >
                <td className="whitespace-nowrap px-3 py-2.5 tabular-nums text-slate-700">{row.startedAt}</td>
                <td className="min-w-[7rem] px-3 py-2.5 font-medium text-slate-800">
                  {href ? (
                    <Link to={href} className="hover:underline" title="温度グラフを開く" onClick={(event) => event.stopPropagation()}>
                      {row.sensorName}
                    </Link>
                  ) : (
                    row.sensorName
                  )}
                </td>
                <td className={`min-w-[8rem] px-3 py-2.5 ${row.state === 'recovered' ? 'text-slate-700' : 'font-medium text-red-600'}`}>{row.alertText}</td>
                <td className="whitespace-nowrap px-3 py-2.5 text-right tabular-nums">
                  <span className={row.isError ? 'font-semibold text-red-600' : 'font-medium text-slate-800'}>{row.alertData}</span>
                  <span className="block text-xs text-slate-500">
                    {row.lowerLimit} / {row.upperLimit}
                  </span>
                </td>
                <td className="px-3 py-2.5">
                  <StateCell row={row} />
                </td>
                <td className="whitespace-nowrap px-2 py-2 text-right">
                  {row.stoppable && (
                    <Link
                      to={searchWith(searchParams, { stop: String(row.id) })}
                      className="btn-secondary px-3 py-1 text-xs text-red-700 max-sm:min-h-11 max-sm:px-5"
                      role="button"
                      preventScrollReset
                      onClick={(event) => event.stopPropagation()}
                    >
                      停止
                    </Link>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function StateCell({ row }: { row: AlertHistoryRowView }) {
  return (
    <div className="space-y-1">
      <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATE_STYLE[row.state]}`}>{ALERT_STATE_LABELS[row.state]}</span>
      {row.recoveredAt && <p className="text-xs tabular-nums text-slate-600">復旧 {row.recoveredAt}</p>}
      {row.stoppedAt && (
        <p className="text-xs text-slate-600">
          <span className="tabular-nums">停止 {row.stoppedAt}</span>
          {row.stoppedByName && <span> {row.stoppedByName}</span>}
        </p>
      )}
      {row.stopComment && <p className="whitespace-pre-wrap break-words rounded bg-slate-50 px-2 py-1 text-xs text-slate-700 ring-1 ring-inset ring-slate-200">{row.stopComment}</p>}
      {row.acknowledgement && <p className="whitespace-pre-wrap break-words rounded bg-emerald-50 px-2 py-1 text-xs text-emerald-900 ring-1 ring-inset ring-emerald-200" data-testid="alert-acknowledgement">{row.acknowledgement}</p>}
    </div>
  );
}
