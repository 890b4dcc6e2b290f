import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { GATEWAY_HEALTH_ALERT_CODES, type Language } from '~/domain/alert-codes';
import { storeAlertMessages } from '~/domain/store-list';
import type { StoreListQuery } from '~/domain/store-list-schemas';
import { storeAmongSeenBy } from './stores.server';
import type { Viewer } from './users.server';

export interface StoreListItem {
  store_id: string;
  store_no: string;
  store_name: string;
  working_state: number | null;
  receive_sensitivity: number | null;
  store_status: number;
  alert_messages: string[];
}

export interface StoreList {
  all_count: number;
  alert_count: number;
  stores: StoreListItem[];
}

/**
 * The viewer's entries of the dashboard's list under the query's filters (the chain overview
 * counts over the same entries, access and filters: chain-overview.server.ts). From
 * store_list_entries (docs/decisions/180-dashboard-paging.md): the list's keys apart from the
 * stores rows that every gateway post rewrites, so its index walks stay index-only.
 */
export function storeListEntriesOf(db: Db, viewer: Viewer, query: Partial<StoreListQuery>) {
  let entries = db.selectFrom('store_list_entries as e').where(storeAmongSeenBy(viewer, 'e.store_id'));
  if (query.region_id) {
    const regionId = query.region_id;
    entries = entries.where('e.prefecture_id', 'in', (eb) => eb.selectFrom('prefectures').select('prefecture_id').where('region_id', '=', regionId));
  }
  if (query.prefecture_id) entries = entries.where('e.prefecture_id', '=', query.prefecture_id);
  if (query.company_id) entries = entries.where('e.company_id', '=', query.company_id);
  if (query.storegroup_id) entries = entries.where('e.storegroup_id', '=', query.storegroup_id);
  if (query.store_status !== undefined) entries = entries.where('e.store_status', '=', query.store_status);
  // ILIKE, as PostgreSQL runs it on a multibyte database: LIKE over both sides lowered.
  if (query.store_name) entries = entries.where('e.store_name_folded', 'like', sql<string>`lower(${`%${escapeLike(query.store_name)}%`})`);
  if (query.store_no) entries = entries.where('e.store_no', 'like', `${escapeLike(query.store_no)}%`);
  return entries;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * One page of the dashboard in two indexed queries whatever the chain's size: the counts, then
 * the page's stores with their sensors' open alerts gathered from sensor_states (never a query
 * per store or per sensor). Stores in alarm come first, then by store number. The page's keys are
 * found on the entries' order indexes (an index-only walk: page 1,000 of 20,000 stores skips
 * 20,000 small index entries, about a millisecond, and page numbers, jumps and the last page work
 * as before); only the page's own rows are read from stores.
 */
export async function listStores(db: Db, viewer: Viewer, query: StoreListQuery, language: Language): Promise<StoreList> {
  const counts = await storeListEntriesOf(db, viewer, query)
    .select([sql<number>`count(*)::int`.as('all_count'), sql<number>`(count(*) filter (where e.in_alarm))::int`.as('alert_count')])
    .executeTakeFirstOrThrow();
  // The page first, its alerts after: gathering alerts in the paged query would gather them for
  // every row the offset skips too.
  const page = storeListEntriesOf(db, viewer, query)
    .select(['e.store_id', 'e.in_alarm', 'e.store_no'])
    .orderBy('e.in_alarm', 'desc')
    .orderBy('e.store_no')
    .orderBy('e.store_id')
    .limit(query.page_count)
    .offset((query.page_no - 1) * query.page_count)
    .as('page');
  const rows = await db
    .selectFrom(page)
    .innerJoin('stores', 'stores.store_id', 'page.store_id')
    .select(['stores.store_id', 'stores.store_no', 'stores.store_name', 'stores.working_state', 'stores.receive_sensitivity', 'stores.store_status'])
    .orderBy('page.in_alarm', 'desc')
    .orderBy('page.store_no')
    .orderBy('page.store_id')
    .execute();
  // Apart from the page's query: Citus plans no correlated subquery over a subquery in FROM, and
  // a filter on the page's store ids reaches only their shards.
  const storeIds = rows.map((row) => row.store_id);
  const [alertsOf, gatewayAlarmsOf] = await Promise.all([pageAlerts(db, storeIds), pageGatewayAlarms(db, storeIds)]);
  return {
    ...counts,
    stores: rows.map((store) => ({ ...store, alert_messages: storeAlertMessages(alertsOf.get(store.store_id) ?? [], language, gatewayAlarmsOf.get(store.store_id)) })),
  };
}

/** The open alert codes of each store's sensors (status above 0), each code once per status. */
async function pageAlerts(db: Db, storeIds: string[]): Promise<Map<string, { code: string; status: number }[]>> {
  if (storeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('sensor_states as ss')
    .innerJoin(sql`unnest(ss.alert_codes)`.as('code'), (join) => join.onTrue())
    .select(['ss.store_id', sql<{ code: string; status: number }[]>`json_agg(distinct jsonb_build_object('code', code, 'status', ss.status))`.as('alerts')])
    .where('ss.store_id', 'in', storeIds)
    .where('ss.status', '>', 0)
    .groupBy('ss.store_id')
    .execute();
  return new Map(rows.map((row) => [row.store_id, row.alerts]));
}

/** The open store-level alarms about the gateway itself (OE00000006, OE00000007) of each store, on the open-alert index. */
async function pageGatewayAlarms(db: Db, storeIds: string[]): Promise<Map<string, string[]>> {
  if (storeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('alert_history')
    .select(['store_id', 'alert_id'])
    .distinct()
    .where('store_id', 'in', storeIds)
    .where('equipment_id', 'is', null)
    .where('recovered_at', 'is', null)
    .where('alert_id', 'in', GATEWAY_HEALTH_ALERT_CODES)
    .execute();
  const codes = new Map<string, string[]>();
  for (const row of rows) codes.set(row.store_id, [...(codes.get(row.store_id) ?? []), row.alert_id]);
  return codes;
}

/**
 * The dashboard row's sensors in alarm (the same open alerts as pageAlerts), by location, so the
 * row names where to look (issue 33 item 2). Console only: GET /v1/store_list keeps its fields.
 */
export async function alarmSensorNames(db: Db, storeIds: string[]): Promise<Record<string, string[]>> {
  if (storeIds.length === 0) return {};
  const rows = await db
    .selectFrom('sensor_states as ss')
    .innerJoin('sensors as s', (join) => join.onRef('s.store_id', '=', 'ss.store_id').onRef('s.equipment_id', '=', 'ss.equipment_id'))
    .select(['ss.store_id', 's.equipment_name'])
    .where('ss.store_id', 'in', storeIds)
    .where('ss.status', '>', 0)
    .where(sql<boolean>`cardinality(ss.alert_codes) > 0`)
    .orderBy('ss.store_id')
    .orderBy('s.location_no')
    .orderBy('s.equipment_id')
    .execute();
  const names: Record<string, string[]> = {};
  for (const row of rows) (names[row.store_id] ??= []).push(row.equipment_name);
  return names;
}
