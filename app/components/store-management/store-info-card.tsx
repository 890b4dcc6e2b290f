import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { EditIcon } from '~/components/icons';
import { formatDate, parseCompact } from '~/domain/japan-time';
import type { StoreInfo } from '~/domain/store-schemas';
import { WorkingStateBadge } from './working-state-badge';
import { storeUrl } from '~/domain/urls';

/** What the card shows of the store info of GET /v1/stores. */
export type StoreInfoView = Omit<StoreInfo, 'company_id' | 'storegroup_id' | 'prefecture_id' | 'diagram_id' | 'pin_code' | 'effective_time'>;

const MISSING = '--';

/** YYYYMMDD → YYYY/MM/DD (000 §9); missing values show --. */
function displayDate(compact: string | null): string {
  const at = compact ? parseCompact(compact) : null;
  return at ? formatDate(at) : MISSING;
}

/** The store's master data with the edit button (to the store edit page, 001). */
export function StoreInfoCard({ store }: { store: StoreInfoView }) {
  const editHref = storeUrl.infoEdit(store.store_id);
  return (
    <section className="card" aria-labelledby="store-info-title">
      <header className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-3">
        <h2 id="store-info-title" className="text-base font-semibold text-slate-800">店舗情報</h2>
        <Link to={editHref} className="btn-secondary py-1.5">
          <EditIcon className="h-4 w-4" />
          編集
        </Link>
      </header>
      <dl className="grid grid-cols-1 gap-x-8 px-5 py-2 md:grid-cols-2">
        <Field label="店舗ID">{store.store_id}</Field>
        <Field label="店舗番号">{store.store_no}</Field>
        <Field label="店舗名" wide>{store.store_name}</Field>
        <Field label="会社">{store.company_name}</Field>
        <Field label="店舗グループ">{store.storegroup_name}</Field>
        <Field label="都道府県">{store.prefecture_name}</Field>
        <Field label="電話番号">{store.tel_no || MISSING}</Field>
        <Field label="住所" wide>{store.address || MISSING}</Field>
        <Field label="開店日">{displayDate(store.opening_date)}</Field>
        <Field label="閉店日">{displayDate(store.closing_date)}</Field>
        <Field label="ユーザーグループ" wide>
          {store.usergroup.length === 0 ? (
            MISSING
          ) : (
            <ul className="flex flex-wrap gap-1.5">
              {store.usergroup.map((group) => (
                <li key={group.usergroup_id} className="rounded-md bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
                  {group.usergroup_name}
                </li>
              ))}
            </ul>
          )}
        </Field>
        <Field label="ゲートウェイ情報">
          <span className="font-mono text-[13px]" data-testid="gateway-info">{store.gateway_info ?? MISSING}</span>
        </Field>
        <Field label="稼働状態">
          <WorkingStateBadge state={store.working_state} />
        </Field>
      </dl>
    </section>
  );
}

function Field({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    // A rule above each row but the first (the first two fields share the first row from md up).
    <div className={`flex items-baseline gap-4 border-t border-slate-100 py-2.5 first:border-t-0 md:[&:nth-child(2)]:border-t-0 ${wide ? 'md:col-span-2' : ''}`}>
      <dt className="w-32 shrink-0 text-xs font-medium text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-sm text-slate-800">{children}</dd>
    </div>
  );
}
