import { Form } from '@remix-run/react';
import { AUDIT_BREAK_TEXTS, AUDIT_KINDS, type AuditBreakReason, type AuditRow, type AuditVerification, AUDIT_MESSAGES, auditActionLabel, auditTargetLabel, auditValueLines } from '~/domain/audit';
import { useStackedTable } from '~/components/page-kit';

// The 監査ログ page's pieces (decision 134): the chain banner, the filters (a GET form: works
// without JavaScript, the page's URL keeps them), and the rows with a before / after disclosure.

export interface AuditFilterValues {
  from: string;
  to: string;
  user_id: string;
  store_id: string;
  kind: string;
}

const dateInput = (compact: string) => (/^\d{8}$/.test(compact) ? `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}` : compact);

/** Where the chain breaks, or that it holds. */
export function ChainBanner({ verification }: { verification: AuditVerification }) {
  if (verification.ok) {
    return (
      <p role="status" className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-800">
        {AUDIT_MESSAGES.chainOk(verification.checked)}
      </p>
    );
  }
  return (
    <div role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-bold">{AUDIT_MESSAGES.chainBroken(verification.broken.length, verification.checked)}</p>
      <ul className="mt-2 list-disc space-y-0.5 pl-5">
        {verification.broken.map((row) => (
          <li key={`${row.audit_id}-${row.reason}`}>
            監査ID {row.audit_id}：{AUDIT_BREAK_TEXTS[row.reason]}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function AuditFilters({ values, errors, users, stores }: { values: AuditFilterValues; errors: Record<string, string>; users: { id: number; name: string }[]; stores: string[] }) {
  return (
    <Form method="get" className="card mb-4 grid grid-cols-1 gap-4 p-4 sm:grid-cols-2 lg:grid-cols-6 lg:items-end" aria-label="絞り込み">
      <div>
        <label htmlFor="from" className="label">開始日</label>
        <input id="from" name="from" type="date" className="input" defaultValue={dateInput(values.from)} aria-invalid={errors.from ? true : undefined} />
        <p className="field-error">{errors.from}</p>
      </div>
      <div>
        <label htmlFor="to" className="label">終了日</label>
        <input id="to" name="to" type="date" className="input" defaultValue={dateInput(values.to)} aria-invalid={errors.to ? true : undefined} />
        <p className="field-error">{errors.to}</p>
      </div>
      <div>
        <label htmlFor="user_id" className="label">ユーザー</label>
        <select id="user_id" name="user_id" className="input" defaultValue={values.user_id}>
          <option value="">すべて</option>
          {users.map((user) => (
            <option key={user.id} value={user.id}>{user.name}</option>
          ))}
        </select>
        <p className="field-error">{errors.user_id}</p>
      </div>
      <div>
        <label htmlFor="store_id" className="label">店舗</label>
        <select id="store_id" name="store_id" className="input" defaultValue={values.store_id}>
          <option value="">すべて</option>
          {stores.map((store) => (
            <option key={store} value={store}>{store}</option>
          ))}
        </select>
        <p className="field-error">{errors.store_id}</p>
      </div>
      <div>
        <label htmlFor="kind" className="label">種別</label>
        <select id="kind" name="kind" className="input" defaultValue={values.kind}>
          <option value="">すべて</option>
          {Object.entries(AUDIT_KINDS).map(([kind, label]) => (
            <option key={kind} value={kind}>{label}</option>
          ))}
        </select>
        <p className="field-error">{errors.kind}</p>
      </div>
      <div className="pb-5">
        <button type="submit" className="btn-primary w-full">検索</button>
      </div>
    </Form>
  );
}

function Values({ value }: { value: unknown }) {
  const lines = auditValueLines(value);
  if (lines.length === 0) return <p className="text-slate-400">–</p>;
  return (
    <ul className="space-y-0.5 break-all font-mono text-xs text-slate-700">
      {lines.map((line, i) => (
        <li key={i}>{line}</li>
      ))}
    </ul>
  );
}

export interface AuditRowView extends AuditRow {
  /** YYYY/MM/DD HH:mm:ss, Japan time. */
  when: string;
}

export function AuditTable({ rows, broken }: { rows: AuditRowView[]; broken: Map<number, AuditBreakReason> }) {
  const stack = useStackedTable();
  return (
    <div className="overflow-x-auto">
      <table ref={stack} className="table-stack w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">監査ID</th>
            <th scope="col" className="px-4 py-2 font-medium">日時</th>
            <th scope="col" className="px-4 py-2 font-medium">ユーザー</th>
            <th scope="col" className="px-4 py-2 font-medium">操作</th>
            <th scope="col" className="px-4 py-2 font-medium">対象</th>
            <th scope="col" className="px-4 py-2 font-medium">店舗</th>
            <th scope="col" className="px-4 py-2 font-medium">変更内容</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => {
            const reason = broken.get(row.audit_id);
            return (
              <tr key={row.audit_id} className={reason ? 'bg-red-50' : undefined} data-broken={reason ? 'true' : undefined}>
                <td className="w-36 px-4 py-2 align-top tabular-nums text-slate-500">
                  {row.audit_id}
                  {reason && <p className="mt-1 text-xs font-bold text-red-700">⚠ {AUDIT_BREAK_TEXTS[reason]}</p>}
                </td>
                <td className="whitespace-nowrap px-4 py-2 align-top tabular-nums">{row.when}</td>
                <td className="whitespace-nowrap px-4 py-2 align-top">{row.user_name ?? (row.user_id === null ? 'システム' : `#${row.user_id}`)}</td>
                <td className="px-4 py-2 align-top">{auditActionLabel(row.action)}</td>
                <td className="whitespace-nowrap px-4 py-2 align-top">
                  {auditTargetLabel(row.target_type)}
                  {row.target_id && <span className="text-slate-500"> {row.target_id}</span>}
                </td>
                <td className="px-4 py-2 align-top">{row.store_id ?? '–'}</td>
                <td className="min-w-[18rem] px-4 py-2 align-top">
                  <details>
                    <summary className="cursor-pointer text-brand-700 hover:underline">変更前・変更後</summary>
                    <div className="mt-2 grid grid-cols-1 gap-3 md:grid-cols-2">
                      <div>
                        <p className="mb-1 text-xs font-bold text-slate-500">変更前</p>
                        <Values value={row.before} />
                      </div>
                      <div>
                        <p className="mb-1 text-xs font-bold text-slate-500">変更後</p>
                        <Values value={row.after} />
                      </div>
                    </div>
                  </details>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
