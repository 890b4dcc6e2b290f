import { type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { Form, useLoaderData, useNavigate, useSubmit } from '@remix-run/react';
import { useState } from 'react';
import { AnnouncementBar } from '~/components/announcement-bar';
import { FilterIcon, SearchIcon, SignalIcon, StoreStatusIcon } from '~/components/icons';
import { SIGNAL_LABELS, lteLevel } from '~/domain/levels';
import { ListSection, useStackedTable } from '~/components/page-kit';
import { PageError } from '~/components/page-error';
import { StaleDataMark } from '~/components/stale-data-mark';
import { liveClientLoader, useLiveData } from '~/components/use-live-updates';
import { getDb } from '~/db/db.server';
import { ALARM_SENSORS_LABEL, STORE_NAME_FILTER_SIZE } from '~/domain/store-list';
import { isAlarmStatus, STORE_STATUS_LABELS } from '~/domain/store-status';
import { listCompanies, listPrefectures, listRegions, listStoregroups } from '~/models/lookups.server';
import { getLatestNotice } from '~/models/notices.server';
import { alarmSensorNames, listStores } from '~/models/store-list.server';
import { requireUser } from '~/http/access.server';
import { dashboardQueryOf } from '~/http/store-list-query.server';
import { logger } from '~/services/logger.server';
import type { AppHandle } from './_layout';
import { ja } from '~/domain/texts/ja';
import { storeUrl } from '~/domain/urls';

export const handle: AppHandle = { hideDashboardLink: true };
export const meta: MetaFunction = () => [{ title: 'ダッシュボード | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const query = dashboardQueryOf(request);
  const db = getDb();
  const [list, nameChoices, regions, prefectures, companies, storegroups, notice] = await Promise.all([
    listStores(db, viewer, query, viewer.language),
    listStores(db, viewer, { page_no: 1, page_count: STORE_NAME_FILTER_SIZE }, viewer.language),
    listRegions(db),
    listPrefectures(db, query.region_id),
    listCompanies(db, viewer),
    listStoregroups(db, viewer, query.company_id),
    // A failed announcement load hides the bar; it never breaks the dashboard (000 §8).
    getLatestNotice(db, new Date()).catch((error) => {
      logger.warn({ err: error }, 'announcement not loaded');
      return null;
    }),
  ]);
  const alarmSensors = await alarmSensorNames(db, list.stores.map((store) => store.store_id));
  return json({
    query,
    alarmSensors,
    list,
    storeNames: nameChoices.stores.map((store) => store.store_name),
    regions,
    prefectures,
    companies,
    storegroups,
    notice,
  });
}

// A failed refresh keeps the list on screen (use-live-updates.ts).
export const clientLoader = liveClientLoader;

export default function DashboardPage() {
  const {
    data: { query, list, notice, alarmSensors },
    staleSince,
  } = useLiveData<typeof loader>();
  const [filtersOpen, setFiltersOpen] = useState(hasFilters(query));
  return (
    <>
      <StaleDataMark since={staleSince} />
      <AnnouncementBar notice={notice} />
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
        {/* One GET form: the name box and the filter panel search together; any change starts at page 1. */}
        <Form method="get" role="search">
          <div className="mb-4 flex flex-wrap items-center gap-3">
            <h1 className="mr-auto text-xl font-bold text-slate-800">ダッシュボード</h1>
            <div className="relative w-72">
              <SearchIcon className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" />
              <input name="store_name" list="store-names" defaultValue={query.store_name ?? ''} placeholder="店舗名で検索" aria-label="店舗名" className="input pl-9" />
              <StoreNameChoices />
            </div>
            <button type="button" className="btn-secondary" aria-expanded={filtersOpen} onClick={() => setFiltersOpen(!filtersOpen)}>
              <FilterIcon className="h-4 w-4" />
              フィルター
            </button>
          </div>
          <Filters hidden={!filtersOpen} />
        </Form>
        <ListSection
          total={list.all_count}
          page={query.page_no}
          pageSize={query.page_count}
          summary={
            <p className="font-semibold text-red-600">
              警報発生店舗数 <span className="text-lg">{list.alert_count}</span> 件
            </p>
          }
          message={list.stores.length === 0 ? ja.noSearchResults : null}
        >
          <StoreRows stores={list.stores} alarmSensors={alarmSensors} />
        </ListSection>
      </main>
    </>
  );
}

export function ErrorBoundary() {
  return <PageError title="ダッシュボード" />;
}

function hasFilters(query: Record<string, unknown>): boolean {
  return ['region_id', 'prefecture_id', 'company_id', 'storegroup_id', 'store_status', 'store_no'].some((key) => query[key] !== undefined);
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

function StoreRows({ stores, alarmSensors }: { stores: Loaded['list']['stores']; alarmSensors: Loaded['alarmSensors'] }) {
  const stack = useStackedTable();
  const navigate = useNavigate();
  return (
    <table ref={stack} className="table-stack w-full text-sm">
      <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-500">
        <tr>
          <th className="w-36 px-4 py-2">状態</th>
          <th className="w-80 px-4 py-2">店舗名</th>
          <th className="w-16 px-4 py-2">LTE</th>
          <th className="px-4 py-2">警報</th>
        </tr>
      </thead>
      <tbody>
        {stores.map((store) => {
          const href = storeUrl.sensors(store.store_id);
          return (
            <tr key={store.store_id} className="cursor-pointer border-t border-slate-100 hover:bg-brand-50" onClick={() => navigate(href)}>
              <td className="px-4 py-2.5">
                <span className="flex items-center gap-2" title={STORE_STATUS_LABELS[store.store_status]}>
                  <StoreStatusIcon status={store.store_status} className="h-6 w-6" />
                  <span className="whitespace-nowrap text-xs text-slate-500">{STORE_STATUS_LABELS[store.store_status]}</span>
                </span>
              </td>
              <td className="px-4 py-2.5 font-medium text-slate-800">
                <a href={href} className="hover:underline" onClick={(event) => event.stopPropagation()}>
                  {store.store_name}
                </a>
              </td>
              <td className="px-4 py-2.5" data-testid="store-lte">
                {/* 000 §3 receive_sensitivity of the store; missing counts as −100 (no bars). */}
                <SignalIcon level={lteLevel(store.receive_sensitivity)} className="h-5 w-5" title={`LTE ${SIGNAL_LABELS[lteLevel(store.receive_sensitivity)]}`} />
              </td>
              <td className={`px-4 py-2.5 ${isAlarmStatus(store.store_status) ? 'font-medium text-red-600' : 'text-slate-500'}`}>
                {store.alert_messages.join('、')}
                {/* Which sensors: the row says where to look before the store opens (issue 33 item 2). */}
                {alarmSensors[store.store_id] && (
                  <span className="block text-xs font-normal text-slate-600" data-testid="alarm-sensors">
                    {ALARM_SENSORS_LABEL}: {alarmSensors[store.store_id]!.join('、')}
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The store name box's choices: the first 50 stores (a second call of page 1, count 50). */
function StoreNameChoices() {
  const { storeNames } = useLoaderData<typeof loader>();
  return (
    <datalist id="store-names">
      {storeNames.map((name) => (
        <option key={name} value={name} />
      ))}
    </datalist>
  );
}

/** The filter panel: selects apply at once, the store number on Enter. Hidden, not unmounted, so it keeps its values. */
function Filters({ hidden }: { hidden: boolean }) {
  const { query, regions, prefectures, companies, storegroups } = useLoaderData<typeof loader>();
  const submit = useSubmit();
  const select = (name: string, label: string, value: unknown, options: [string | number, string][]) => (
    <label className="text-xs font-medium text-slate-600">
      {label}
      <select name={name} defaultValue={value === undefined ? '' : String(value)} className="input mt-1" onChange={(event) => submit(event.currentTarget.form)}>
        <option value="">すべて</option>
        {options.map(([id, text]) => (
          <option key={id} value={id}>{text}</option>
        ))}
      </select>
    </label>
  );
  return (
    <div className={`card mb-4 grid grid-cols-2 gap-3 p-4 md:grid-cols-3 lg:grid-cols-6 ${hidden ? 'hidden' : ''}`} aria-label="フィルター">
      {select('region_id', '地域', query.region_id, regions.map((r) => [r.region_id, r.region_name]))}
      {select('prefecture_id', '都道府県', query.prefecture_id, prefectures.map((p) => [p.prefecture_id, p.prefecture_name]))}
      {select('company_id', '会社', query.company_id, companies.map((c) => [c.company_id, c.company_name]))}
      {select('storegroup_id', '店舗グループ', query.storegroup_id, storegroups.map((g) => [g.storegroup_id, g.storegroup_name]))}
      <label className="text-xs font-medium text-slate-600">
        店舗番号
        <input name="store_no" defaultValue={query.store_no ?? ''} inputMode="numeric" className="input mt-1" placeholder="Enterで検索" />
      </label>
      {select('store_status', '状態', query.store_status, Object.entries(STORE_STATUS_LABELS))}
      <button type="submit" className="sr-only">検索</button>
    </div>
  );
}
