import { type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { Link, useSearchParams } from '@remix-run/react';
import { JapanTileMap } from '~/components/chain-overview/japan-tile-map';
import { StoreStatusIcon } from '~/components/icons';
import { PageError } from '~/components/page-error';
import { StaleDataMark } from '~/components/stale-data-mark';
import { liveClientLoader, useLiveData } from '~/components/use-live-updates';
import { getDb } from '~/db/db.server';
import { alarmShareText } from '~/domain/chain-overview';
import type { ChainOverview } from '~/domain/chain-overview-schemas';
import { formatDateTime, parseCompact } from '~/domain/japan-time';
import { isAlarmStatus, STORE_STATUS, STORE_STATUS_LABELS } from '~/domain/store-status';
import { appUrl, storeUrl, withQuery } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { chainOverviewQueryOf } from '~/http/store-list-query.server';
import { getChainOverview } from '~/models/chain-overview.server';

export const meta: MetaFunction = () => [{ title: '全店舗概況 | On-Reco' }];

// The chain at a glance (issue 32, decision 292): the numbers of GET /v1/chain_overview, live
// like the dashboard (every visible store's change events). ?view=wall: a wall screen.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'chainOverview');
  const query = chainOverviewQueryOf(request);
  const overview = await getChainOverview(getDb(), viewer, query, viewer.language, new Date());
  return json({ overview, query });
}

export const clientLoader = liveClientLoader;

/** The dashboard's list under a filter: every count drills down to the stores behind it. */
const dashboardOf = (filters: Record<string, string | number | undefined>) => withQuery(appUrl.dashboard, filters);

export default function ChainOverviewPage() {
  const {
    data: { overview, query },
    staleSince,
  } = useLiveData<typeof loader>();
  const [params] = useSearchParams();
  const wall = params.get('view') === 'wall';
  const scope = { region_id: query.region_id, company_id: query.company_id, storegroup_id: query.storegroup_id };
  const taken = parseCompact(overview.generated_at);
  if (wall) return <WallView overview={overview} scope={scope} taken={taken} staleSince={staleSince} />;
  const wallLink = withQuery(appUrl.chainOverview, { ...scope, view: 'wall' });
  return (
    <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
      <StaleDataMark since={staleSince} />
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-xl font-bold text-slate-800">全店舗概況</h1>
        {taken && <p className="text-xs text-slate-500">{formatDateTime(taken)} 時点</p>}
        <Link to={wallLink} className="btn-secondary">
          壁面表示
        </Link>
      </div>
      <StatusTiles overview={overview} scope={scope} />
      <div className="mt-6 grid gap-6 lg:grid-cols-[3fr_2fr]">
        <section className="card p-4" aria-labelledby="map-heading">
          <h2 id="map-heading" className="mb-2 font-semibold text-slate-700">都道府県別</h2>
          <JapanTileMap prefectures={overview.prefectures} linkOf={(id) => dashboardOf({ ...scope, prefecture_id: id })} />
        </section>
        <WorstStores overview={overview} />
      </div>
      <div className="mt-6 grid gap-6 md:grid-cols-2 xl:grid-cols-4">
        <CountTable
          title="警報の種類"
          head={['種類', 'センサ', '店舗']}
          rows={overview.alert_kinds.map((kind) => ({ key: kind.alert_id, cells: [kind.label, kind.sensor_count, kind.store_count] }))}
          empty="警報はありません"
        />
        <CountTable
          title="地域"
          head={['地域', '警報', '店舗']}
          rows={overview.regions.filter((region) => region.store_count > 0).map((region) => ({ key: String(region.region_id), to: dashboardOf({ ...scope, region_id: region.region_id }), cells: [region.region_name, region.alarm_store_count, region.store_count] }))}
          empty="店舗はありません"
        />
        <CountTable
          title="店舗グループ"
          head={['店舗グループ', '警報', '店舗']}
          rows={overview.storegroups.map((group) => ({ key: group.storegroup_id, to: dashboardOf({ company_id: group.company_id, storegroup_id: group.storegroup_id }), cells: [group.storegroup_name, group.alarm_store_count, group.store_count] }))}
          empty="店舗はありません"
        />
        <CountTable
          title="什器の種類"
          head={['什器', '警報', '確認中']}
          rows={overview.furniture_kinds.map((kind) => ({ key: String(kind.measure_target_equipment_kind_id), cells: [kind.name, kind.alarm_sensor_count, kind.pending_sensor_count] }))}
          empty="警報中のセンサはありません"
        />
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <PageError title="全店舗概況" />;
}

type Scope = Record<string, string | number | undefined>;

function StatusTiles({ overview, scope, large = false }: { overview: ChainOverview; scope: Scope; large?: boolean }) {
  return (
    <ul className={`grid grid-cols-2 gap-3 ${large ? 'lg:grid-cols-5' : 'md:grid-cols-5'}`} aria-label="状態別の店舗数">
      <li className={`rounded-lg p-3 ${large ? 'bg-slate-800' : 'card'}`}>
        <p className={large ? 'text-xl text-slate-300' : 'text-xs text-slate-500'}>全店舗</p>
        <p className={`font-bold ${large ? 'text-6xl' : 'text-2xl text-slate-800'}`} data-testid="store-count">{overview.store_count}</p>
      </li>
      {[STORE_STATUS.warning, STORE_STATUS.notConnected, STORE_STATUS.inOperation, STORE_STATUS.closed].map((status) => {
        const count = overview.statuses.find((entry) => entry.store_status === status)?.store_count ?? 0;
        const alarm = isAlarmStatus(status) && count > 0;
        return (
          <li key={status} className={`rounded-lg p-3 ${large ? (alarm ? 'bg-red-700' : 'bg-slate-800') : alarm ? 'border border-red-200 bg-red-50' : 'card'}`}>
            <Link to={dashboardOf({ ...scope, store_status: status })} className="block" data-testid={`status-${status}`}>
              <p className={`flex items-center gap-1.5 ${large ? 'text-xl text-white' : 'text-xs text-slate-600'}`}>
                <StoreStatusIcon status={status} className={large ? 'h-7 w-7' : 'h-4 w-4'} />
                {STORE_STATUS_LABELS[status]}
              </p>
              <p className={`font-bold ${large ? 'text-6xl' : `text-2xl ${alarm ? 'text-red-700' : 'text-slate-800'}`}`}>{count}</p>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function WorstStores({ overview, large = false }: { overview: ChainOverview; large?: boolean }) {
  return (
    <section className={large ? '' : 'card p-4'} aria-labelledby="worst-heading">
      <h2 id="worst-heading" className={`mb-2 font-semibold ${large ? 'text-3xl' : 'text-slate-700'}`}>要対応の店舗</h2>
      {overview.worst_stores.length === 0 ? (
        <p className={large ? 'text-2xl' : 'text-sm text-slate-500'}>警報発生中・未接続の店舗はありません</p>
      ) : (
        <ol className={large ? 'space-y-2 text-2xl' : 'divide-y divide-slate-100 text-sm'} data-testid="worst-stores">
          {overview.worst_stores.map((store) => (
            <li key={store.store_id} className="flex items-center gap-2 py-1.5">
              <StoreStatusIcon status={store.store_status} className={large ? 'h-8 w-8 shrink-0' : 'h-5 w-5 shrink-0'} title={STORE_STATUS_LABELS[store.store_status]} />
              <Link to={storeUrl.sensors(store.store_id)} className="min-w-0 flex-1 truncate font-medium hover:underline">
                {store.store_name}
              </Link>
              <span className={large ? 'whitespace-nowrap' : 'whitespace-nowrap text-xs text-slate-500'}>
                {isAlarmStatus(store.store_status) ? `警報 ${store.alarm_sensor_count}センサ` : STORE_STATUS_LABELS[store.store_status]}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function CountTable({ title, head, rows, empty }: { title: string; head: string[]; rows: { key: string; to?: string; cells: (string | number)[] }[]; empty: string }) {
  return (
    <section className="card p-4" aria-label={title}>
      <h2 className="mb-2 font-semibold text-slate-700">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <table className="w-full text-sm">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              {head.map((text, index) => (
                <th key={text} className={`py-1 ${index > 0 ? 'w-14 text-right' : ''}`}>{text}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} className="border-t border-slate-100">
                {row.cells.map((cell, index) => (
                  <td key={index} className={`py-1.5 ${index > 0 ? 'text-right tabular-nums' : ''}`}>
                    {index === 0 && row.to ? (
                      <Link to={row.to} className="text-brand-700 hover:underline">{cell}</Link>
                    ) : (
                      cell
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The wall screen: over the header, dark, large type, nothing to click needed; updates live. */
function WallView({ overview, scope, taken, staleSince }: { overview: ChainOverview; scope: Scope; taken: Date | null; staleSince: Date | null }) {
  return (
    <main className="fixed inset-0 z-40 overflow-auto bg-slate-950 p-6 text-white" data-testid="wall-view">
      <div className="mb-4 flex flex-wrap items-baseline gap-4">
        <h1 className="mr-auto text-4xl font-bold">全店舗概況</h1>
        <p className="text-2xl text-slate-300">
          警報発生 {alarmShareText(overview.store_count, overview.alarm_store_count)}
          {taken && <span className="ml-4">{formatDateTime(taken)} 時点</span>}
        </p>
        {staleSince && <p className="rounded bg-amber-400 px-3 py-1 text-2xl font-bold text-black">接続が途切れています（{formatDateTime(staleSince)} のデータ）</p>}
      </div>
      <StatusTiles overview={overview} scope={scope} large />
      <div className="mt-6 grid gap-8 lg:grid-cols-[3fr_2fr]">
        <JapanTileMap prefectures={overview.prefectures} linkOf={(id) => dashboardOf({ ...scope, prefecture_id: id })} className="rounded-lg bg-white p-3 text-slate-900" wall />
        <WorstStores overview={{ ...overview, worst_stores: overview.worst_stores.slice(0, 10) }} large />
      </div>
    </main>
  );
}
