import { type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { Form, Link, useLoaderData, useSearchParams, useSubmit } from '@remix-run/react';
import { ListSection, useStackedTable } from '~/components/page-kit';
import { PageError } from '~/components/page-error';
import { BufferGauge, LteSignal } from '~/components/store-management/gateway-health-card';
import { getDb } from '~/db/db.server';
import { GATEWAY_LIST_PAGE_SIZE, type GatewayHealthView, type GatewaySort, GatewayListQuerySchema } from '~/domain/gateway-health';
import { formatDateTime } from '~/domain/japan-time';
import { ja } from '~/domain/texts/ja';
import { storeUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { listGateways } from '~/models/gateway-health.server';
import { listRolloutProgress } from '~/models/gateway-releases.server';
import { RolloutProgress } from '~/components/gateways/rollout-progress';
import { can } from '~/domain/roles';

// /gateways ゲートウェイ一覧 (issue 16): every store's gateway with its health, for administrators
// and maintenance (others 403). Sortable by each column, filterable (offline, buffer over 50 %,
// weak signal), 20 per page. A GET form: the filters and the sort live in the URL.

export const meta: MetaFunction = () => [{ title: 'ゲートウェイ一覧 | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'gatewayList');
  const query = GatewayListQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const list = await listGateways(getDb(), viewer, query);
  // Rollouts are administrators' (decision 291); maintenance sees the versions in the list.
  const rollouts = can(viewer.authority, 'gatewayReleases') ? await listRolloutProgress(getDb()) : [];
  return json({ query, list, rollouts });
}

const COLUMNS: { sort: GatewaySort; label: string; className?: string }[] = [
  { sort: 'store_no', label: '店舗番号', className: 'w-28' },
  { sort: 'store_name', label: '店舗名' },
  { sort: 'last_contact', label: '最終通信', className: 'w-40' },
  { sort: 'version', label: 'バージョン', className: 'w-28' },
  { sort: 'buffer', label: 'バッファ', className: 'w-64' },
  { sort: 'oldest_unsent', label: '最古の未送信', className: 'w-40' },
  { sort: 'lte', label: 'LTE', className: 'w-28' },
];

const FILTERS = [
  { name: 'offline', label: '通信なし' },
  { name: 'buffer', label: 'バッファ50%超' },
  { name: 'weak', label: '電波弱' },
] as const;

export default function GatewayListPage() {
  const stack = useStackedTable();
  const { query, list, rollouts } = useLoaderData<typeof loader>();
  const submit = useSubmit();
  return (
    <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
      <h1 className="mb-4 text-xl font-bold text-slate-800">ゲートウェイ一覧</h1>
      <RolloutProgress rollouts={rollouts} />
      <Form method="get" className="card mb-4 flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 text-sm" aria-label="フィルター" onChange={(event) => submit(event.currentTarget)}>
        <span className="font-medium text-slate-600">絞り込み</span>
        {FILTERS.map((filter) => (
          <label key={filter.name} className="flex items-center gap-2 text-slate-700">
            <input type="checkbox" name={filter.name} value="1" defaultChecked={query[filter.name]} className="h-4 w-4 rounded border-slate-300" />
            {filter.label}
          </label>
        ))}
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="order" value={query.order} />
        <noscript>
          <button type="submit" className="btn-secondary">絞り込む</button>
        </noscript>
      </Form>
      <ListSection total={list.total} page={query.page_no} pageSize={GATEWAY_LIST_PAGE_SIZE} label="ゲートウェイ" message={list.gateways.length === 0 ? ja.noSearchResults : null}>
        <div className="overflow-x-auto">
          <table ref={stack} className="table-stack w-full text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-500">
              <tr>
                {COLUMNS.map((column) => (
                  <SortHeader key={column.sort} column={column} />
                ))}
              </tr>
            </thead>
            <tbody>
              {list.gateways.map((gateway) => (
                <GatewayRow key={gateway.store_id} gateway={gateway} />
              ))}
            </tbody>
          </table>
        </div>
      </ListSection>
    </main>
  );
}

/** A column header that sorts by it (again: the other direction), keeping the filters, from page 1. */
function SortHeader({ column }: { column: (typeof COLUMNS)[number] }) {
  const [params] = useSearchParams();
  const current = params.get('sort') ?? 'store_no';
  const order = params.get('order') === 'desc' ? 'desc' : 'asc';
  const active = current === column.sort;
  const next = new URLSearchParams(params);
  next.set('sort', column.sort);
  next.set('order', active && order === 'asc' ? 'desc' : 'asc');
  next.delete('page_no');
  return (
    <th className={`px-4 py-2 ${column.className ?? ''}`} aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <Link to={`?${next}`} className="inline-flex items-center gap-1 whitespace-nowrap hover:text-slate-800" preventScrollReset>
        {column.label}
        <span aria-hidden className={active ? 'text-brand-600' : 'text-slate-300'}>{active && order === 'desc' ? '▼' : '▲'}</span>
      </Link>
    </th>
  );
}

function GatewayRow({ gateway }: { gateway: GatewayHealthView }) {
  const at = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : '--');
  return (
    <tr className="border-t border-slate-100 hover:bg-brand-50" data-testid="gateway-row">
      <td className="px-4 py-2.5 tabular-nums text-slate-600">{gateway.store_no}</td>
      <td className="px-4 py-2.5 font-medium text-slate-800">
        <Link to={storeUrl.management(gateway.store_id)} className="hover:underline">
          {gateway.store_name}
        </Link>
        {(gateway.buffer_alarm || gateway.loss_alarm) && <span className="ml-2 whitespace-nowrap rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700">{gateway.loss_alarm ? 'データ欠損' : 'バッファ残量低下'}</span>}
      </td>
      <td className={`whitespace-nowrap px-4 py-2.5 ${gateway.offline ? 'font-medium text-red-600' : 'text-slate-700'}`}>
        {at(gateway.last_contact_at)}
        {gateway.offline && <span className="ml-1 text-xs">（通信なし）</span>}
      </td>
      <td className="px-4 py-2.5 text-slate-700">{gateway.version ?? '--'}</td>
      <td className="px-4 py-2.5 text-slate-700">
        <BufferGauge depth={gateway.buffer_depth} capacity={gateway.buffer_capacity} />
      </td>
      <td className="whitespace-nowrap px-4 py-2.5 text-slate-700">{at(gateway.oldest_unsent_at)}</td>
      <td className="px-4 py-2.5">
        <LteSignal rssi={gateway.lte_rssi} />
      </td>
    </tr>
  );
}

export function ErrorBoundary() {
  return <PageError title="ゲートウェイ一覧" />;
}
