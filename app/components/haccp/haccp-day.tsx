import { Form, Link } from '@remix-run/react';
import { type HaccpDayView, type HaccpResult, HACCP_NOTE_MAX, HACCP_TEXTS } from '~/domain/haccp';
import { storeUrl } from '~/domain/urls';

const RESULT_CLASSES: Record<HaccpResult, string> = {
  pass: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  fail: 'bg-red-50 text-red-700 ring-red-600/20',
  no_data: 'bg-slate-100 text-slate-600 ring-slate-500/20',
};

/** The day navigation: the previous day, the day, the next day (never past today) and today. */
export function HaccpDayNav({ storeId, view }: { storeId: string; view: HaccpDayView }) {
  const link = 'btn-secondary px-3 py-1.5';
  return (
    <nav aria-label="日付" className="mb-4 flex flex-wrap items-center gap-2">
      <Link className={link} to={storeUrl.haccp(storeId, { date: view.previous })} aria-label="前日">
        ‹ 前日
      </Link>
      <p className="min-w-[8rem] text-center text-lg font-semibold text-slate-800" aria-live="polite">
        {view.dayLabel}
      </p>
      {view.next ? (
        <Link className={link} to={storeUrl.haccp(storeId, { date: view.next })} aria-label="翌日">
          翌日 ›
        </Link>
      ) : (
        <span className={`${link} pointer-events-none opacity-40`} aria-disabled="true">
          翌日 ›
        </span>
      )}
      {view.day !== view.today && (
        <Link className="ml-1 text-sm font-medium text-brand-700 hover:underline" to={storeUrl.haccp(storeId, { date: view.today })}>
          今日
        </Link>
      )}
      <p className="ml-auto flex gap-3 text-sm text-slate-600">
        <span>適合 {view.counts.pass}</span>
        <span className="text-red-700">逸脱あり {view.counts.fail}</span>
        <span>記録なし {view.counts.no_data}</span>
      </p>
    </nav>
  );
}

type HaccpSensorView = HaccpDayView['sensors'][number];

/**
 * Each sensor of the day: limits, range, result, excursions with their corrective actions, alerts.
 * Below 768 px one card per sensor, every field visible without a sideways scroll (issue 33
 * item 3); from 768 px the table.
 */
export function HaccpTable({ view }: { view: HaccpDayView }) {
  if (view.sensors.length === 0) return <p className="card px-4 py-12 text-center text-sm text-slate-500">{HACCP_TEXTS.noSensors}</p>;
  return (
    <>
      <ul className="space-y-3 md:hidden" aria-label="センサーごとの確認結果" data-testid="haccp-cards">
        {view.sensors.map((s) => (
          <li key={s.equipmentId} className="card p-4 text-sm">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="break-words font-medium text-slate-800">{s.name}</p>
                <p className="text-xs text-slate-500">{s.serialNo}</p>
              </div>
              <ResultBadge sensor={s} />
            </div>
            <dl className="mt-2 grid grid-cols-[6.5rem_1fr] gap-x-2 gap-y-1 text-slate-700">
              <dt className="text-xs text-slate-500">上下限</dt>
              <dd>{s.limits}</dd>
              <dt className="text-xs text-slate-500">最低 〜 最高</dt>
              <dd>{s.range}</dd>
              <dt className="text-xs text-slate-500">判定</dt>
              <dd>{s.resultLabel}</dd>
            </dl>
            <h3 className="mt-3 text-xs font-semibold text-slate-500">逸脱・アラートと改善措置</h3>
            <div className="mt-1 text-slate-700">
              <Excursions sensor={s} />
            </div>
          </li>
        ))}
      </ul>
      {/* Scrolls sideways only if a window between 768 px and the table's width: focusable so the keyboard can scroll it too (WCAG 2.1.1). */}
      <section className="card hidden overflow-x-auto md:block" aria-label="センサーごとの確認結果" tabIndex={0}>
        <table className="w-full min-w-[720px] text-sm">
          <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs font-semibold text-slate-600">
            <tr>
              <th className="px-4 py-2.5">センサー</th>
              <th className="px-4 py-2.5">上下限</th>
              <th className="px-4 py-2.5">最低 〜 最高</th>
              <th className="px-4 py-2.5">判定</th>
              <th className="px-4 py-2.5">逸脱・アラートと改善措置</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {view.sensors.map((s) => (
              <tr key={s.equipmentId} className="align-top">
                <td className="px-4 py-3">
                  <p className="font-medium text-slate-800">{s.name}</p>
                  <p className="text-xs text-slate-500">{s.serialNo}</p>
                </td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-700">{s.limits}</td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-700">{s.range}</td>
                <td className="px-4 py-3">
                  <ResultBadge sensor={s} />
                </td>
                <td className="px-4 py-3 text-slate-700">
                  <Excursions sensor={s} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

function ResultBadge({ sensor }: { sensor: HaccpSensorView }) {
  return <span className={`inline-flex shrink-0 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${RESULT_CLASSES[sensor.result]}`}>{sensor.resultLabel}</span>;
}

function Excursions({ sensor: s }: { sensor: HaccpSensorView }) {
  if (s.excursions.length === 0 && s.alerts.length === 0) return <span className="text-slate-400">{HACCP_TEXTS.noExcursions}</span>;
  return (
    <ul className="space-y-2">
      {s.excursions.map((e, i) => (
        <li key={`e${i}`}>
          <p>
            <span className="font-medium text-red-700">{e.kind}</span> {e.time}（最大 {e.peak}）
          </p>
          {e.actions.length === 0 ? (
            <p className="text-xs text-amber-700">改善措置の記録がありません</p>
          ) : (
            e.actions.map((a, k) => (
              <p key={k} className="break-words text-xs text-slate-600">
                改善措置 {a.time} {a.userName}: {a.comment}
              </p>
            ))
          )}
        </li>
      ))}
      {s.alerts.map((a, i) => (
        <li key={`a${i}`}>
          <p>
            <span className="font-medium text-red-700">{a.label}</span> {a.time}
          </p>
          <p className="break-words text-xs text-slate-600">
            停止 {a.stop}
            {a.comment ? `: ${a.comment}` : ''}
          </p>
          {a.acknowledgement && <p className="break-words text-xs text-emerald-800" data-testid="haccp-acknowledgement">{a.acknowledgement}</p>}
        </li>
      ))}
    </ul>
  );
}

/** Who signed the day and the sign form (works without JavaScript: a plain POST). */
export function HaccpSignoff({ view, noteError, note }: { view: HaccpDayView; noteError?: string; note?: string }) {
  const latest = view.signoffs[view.signoffs.length - 1];
  return (
    <section id="haccp-signoff" className="card mt-4 scroll-mt-16 p-4" aria-label="署名">
      <h2 className="mb-2 text-base font-semibold text-slate-800">確認者の署名</h2>
      {latest ? (
        <p className="text-sm text-slate-700">
          <span className="mr-2 inline-flex rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-semibold text-emerald-700 ring-1 ring-inset ring-emerald-600/20">{HACCP_TEXTS.signed}</span>
          {latest.userName}（{latest.signedAt}）{latest.note ? ` 備考: ${latest.note}` : ''}
        </p>
      ) : (
        <p className="text-sm text-slate-500">{HACCP_TEXTS.unsigned}</p>
      )}
      {view.signoffs.length > 1 && (
        <ul className="mt-2 space-y-0.5 text-xs text-slate-500" aria-label="署名の履歴">
          {view.signoffs.slice(0, -1).map((s, i) => (
            <li key={i}>
              {s.signedAt} {s.userName}
              {s.note ? ` 備考: ${s.note}` : ''}
            </li>
          ))}
        </ul>
      )}
      {latest && view.needsSignoff && <p className="mt-2 text-sm font-medium text-amber-700">{HACCP_TEXTS.needsResign}</p>}
      {view.canSign && view.needsSignoff && (
        <Form method="post" className="mt-3 flex flex-wrap items-start gap-3">
          <input type="hidden" name="date" value={view.day} />
          <div className="min-w-[16rem] flex-1">
            <label htmlFor="haccp-note" className="label">
              {HACCP_TEXTS.noteLabel}
            </label>
            <textarea
              id="haccp-note"
              name="note"
              rows={2}
              maxLength={HACCP_NOTE_MAX}
              defaultValue={note}
              className="input"
              aria-invalid={noteError ? true : undefined}
              aria-describedby={noteError ? 'haccp-note-error' : undefined}
            />
            {noteError && (
              <p id="haccp-note-error" className="field-error">
                {noteError}
              </p>
            )}
          </div>
          <button type="submit" className="btn-primary mt-6">
            {latest ? HACCP_TEXTS.resign : HACCP_TEXTS.sign}
          </button>
        </Form>
      )}
    </section>
  );
}
