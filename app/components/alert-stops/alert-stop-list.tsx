import { Form, Link, useNavigate } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { rememberSensorsShowTab } from '~/components/sensors-show/remembered-tab';
import { ALERT_STOP_MESSAGES, type AlertStopRow, slashDate } from '~/domain/alert-stop-editor';
import { storeUrl } from '~/domain/urls';
import { Modal } from '~/components/modal';
import { useStackedTable } from '~/components/page-kit';

/** カレンダーに戻る: the sensors show page on its alert-stop tab (without JavaScript, on its default tab). */
export function BackToCalendarButton({ to }: { to: string }) {
  return (
    <Link to={to} className="btn-secondary" onClick={() => rememberSensorsShowTab('alert-stop')}>
      カレンダーに戻る
    </Link>
  );
}

interface TableProps {
  rows: readonly AlertStopRow[];
  storeId: string;
  startDate: string;
  endDate: string;
  hasSensors: boolean;
}

/** The schedules of the range: number, type, dates, stop times (store-wide or per sensor), weekdays, edit and delete. */
export function AlertStopTable({ rows, storeId, startDate, endDate, hasSensors }: TableProps) {
  const stack = useStackedTable();
  const period = startDate === endDate ? slashDate(startDate) : `${slashDate(startDate)}〜${slashDate(endDate)}`;
  return (
    <section className="card" aria-label="警報停止時間">
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2 border-b border-slate-200 px-4 py-3 text-sm">
        <p className="font-medium text-slate-700">{period}</p>
        <p className="text-slate-600">全{rows.length}件</p>
        {!hasSensors && <p className="text-amber-700">この店舗にはセンサがないため、警報停止時間を登録できません。</p>}
      </div>
      {rows.length === 0 ? (
        <p className="px-4 py-12 text-center text-sm text-slate-500">該当する検索結果はありません</p>
      ) : (
        <div className="overflow-x-auto">
          <table ref={stack} className="table-stack w-full text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-500">
              <tr>
                <th scope="col" className="w-12 px-4 py-2">No.</th>
                <th scope="col" className="w-16 px-3 py-2">種別</th>
                <th scope="col" className="px-3 py-2">日付</th>
                <th scope="col" className="px-3 py-2">停止時間</th>
                <th scope="col" className="w-40 px-3 py-2">曜日</th>
                <th scope="col" className="px-4 py-2"><span className="sr-only">操作</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((row) => (
                <tr key={row.scheduleId} className="align-top">
                  <td className="px-4 py-3 tabular-nums text-slate-500">{row.no}</td>
                  <td className="px-3 py-3">
                    <span className={`whitespace-nowrap rounded px-2 py-0.5 text-xs font-medium ${row.type === '定期' ? 'bg-brand-50 text-brand-700' : 'bg-slate-100 text-slate-700'}`}>{row.type}</span>
                  </td>
                  <td className="whitespace-nowrap px-3 py-3 tabular-nums text-slate-800">{row.dateText}</td>
                  <td className="px-3 py-3 text-slate-800">
                    {row.timeLines.map((line, index) => (
                      <p key={index} className="tabular-nums">
                        {line.label !== null && <span className="mr-2 text-slate-500">{line.label}:</span>}
                        {/* A range never breaks inside (00:00〜 / 06:00); the list breaks after a comma. */}
                        {line.ranges.split(', ').map((range, index) => (
                          <span key={index}>
                            {index > 0 && ', '}
                            <span className="whitespace-nowrap">{range}</span>
                          </span>
                        ))}
                      </p>
                    ))}
                  </td>
                  <td className="px-3 py-3 text-slate-800">{row.weekdays || '-'}</td>
                  <td className="whitespace-nowrap px-4 py-3 text-right">
                    <Link to={storeUrl.alertStopEdit(storeId, startDate, endDate, row.scheduleId)} className="btn-secondary mr-2 px-3 py-1 text-xs">
                      編集
                    </Link>
                    <Link to={storeUrl.alertStops(storeId, startDate, endDate, { delete: row.scheduleId })} className="btn-danger px-3 py-1 text-xs" preventScrollReset>
                      削除
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The delete confirmation: a form, so it works without JavaScript; Escape or いいえ goes back to the list. */
export function DeleteConfirmDialog({ scheduleId, cancelTo }: { scheduleId: number; cancelTo: string }) {
  const navigate = useNavigate();
  return (
    <Modal role="alertdialog" labelledBy="delete-title" onClose={() => navigate(cancelTo, { preventScrollReset: true })}>
      <h2 id="delete-title" className="text-base font-semibold text-slate-800">削除しますか？</h2>
      <p className="mt-2 text-sm text-slate-600">この警報停止時間を削除します。元に戻せません。</p>
      <Form method="post" className="mt-6 flex justify-end gap-2">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="schedule_id" value={scheduleId} />
        {/* Focus starts on the safe choice: Enter on an opened dialog must not delete. */}
        <Link to={cancelTo} className="btn-secondary" preventScrollReset autoFocus>
          いいえ
        </Link>
        <button type="submit" className="btn-danger">
          削除
        </button>
      </Form>
    </Modal>
  );
}

/** 削除に失敗しました。 (001 §8): OK closes it and the list is reloaded. */
export function DeleteFailedDialog({ closeTo }: { closeTo: string }) {
  const navigate = useNavigate();
  const ok = useRef<HTMLAnchorElement>(null);
  useEffect(() => ok.current?.focus(), []);
  return (
    <Modal role="alertdialog" labelledBy="delete-failed" onClose={() => navigate(closeTo)}>
      <h2 id="delete-failed" className="text-base font-semibold text-slate-800">{ALERT_STOP_MESSAGES.deleteFailed}</h2>
      <div className="mt-6 flex justify-end">
        <Link ref={ok} to={closeTo} className="btn-primary">
          OK
        </Link>
      </div>
    </Modal>
  );
}
