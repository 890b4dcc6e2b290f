import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { Language } from '~/domain/alert-codes';
import { storeAlertMessages } from '~/domain/store-list';
import type { StoreListQuery } from '~/domain/store-list-schemas';
import { storeVisibleTo } from './stores.server';
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

function filtered(db: Db, viewer: Viewer, query: StoreListQuery) {
  let stores = db.selectFrom('stores').where(storeVisibleTo(viewer));
  if (query.region_id) {
    const regionId = query.region_id;
    stores = stores.where('stores.prefecture_id', 'in', (eb) => eb.selectFrom('prefectures').select('prefecture_id').where('region_id', '=', regionId));
  }
  if (query.prefecture_id) stores = stores.where('stores.prefecture_id', '=', query.prefecture_id);
  if (query.company_id) stores = stores.where('stores.company_id', '=', query.company_id);
  if (query.storegroup_id) stores = stores.where('stores.storegroup_id', '=', query.storegroup_id);
  if (query.store_status !== undefined) stores = stores.where('stores.store_status', '=', query.store_status);
  if (query.store_name) stores = stores.where('stores.store_name', 'ilike', `%${escapeLike(query.store_name)}%`);
  if (query.store_no) stores = stores.where('stores.store_no', 'like', `${escapeLike(query.store_no)}%`);
  return stores;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * One page of the dashboard in two indexed queries whatever the chain's size: the counts,
 * then the page's stores with their sensors' open alerts gathered from sensor_states (never
 * a query per store or per sensor). Stores in alarm come first, then by store number.
 */
export async function listStores(db: Db, viewer: Viewer, query: StoreListQuery, language: Language): Promise<StoreList> {
  const counts = await filtered(db, viewer, query)
    .select([sql<number>`count(*)::int`.as('all_count'), sql<number>`(count(*) filter (where stores.store_status = 3))::int`.as('alert_count')])
    .executeTakeFirstOrThrow();
  // The page first, its alerts after: gathering alerts in the paged query would gather them for
  // every row the offset skips too (page 200 of 20,000 stores ran the alerts subquery 20,000 times).
  const page = filtered(db, viewer, query)
    .select(['stores.store_id', 'stores.store_no', 'stores.store_name', 'stores.working_state', 'stores.receive_sensitivity', 'stores.store_status'])
    .orderBy(sql`stores.store_status = 3`, 'desc')
    .orderBy('stores.store_no')
    .orderBy('stores.store_id')
    .limit(query.page_count)
    .offset((query.page_no - 1) * query.page_count)
    .as('page');
  const rows = await db
    .selectFrom(page)
    .select([
      'page.store_id',
      'page.store_no',
      'page.store_name',
      'page.working_state',
      'page.receive_sensitivity',
      'page.store_status',
      (eb) =>
        eb
          .selectFrom('sensor_states as ss')
          .select(sql<{ code: string; status: number }[]>`coalesce(json_agg(distinct jsonb_build_object('code', code, 'status', ss.status)), '[]')`.as('alerts'))
          .innerJoin(sql`unnest(ss.alert_codes)`.as('code'), (join) => join.onTrue())
          .whereRef('ss.store_id', '=', 'page.store_id')
          .where('ss.status', '>', 0)
          .as('alerts'),
    ])
    .orderBy(sql`page.store_status = 3`, 'desc')
    .orderBy('page.store_no')
    .orderBy('page.store_id')
    .execute();
  return {
    ...counts,
    stores: rows.map(({ alerts, ...store }) => ({ ...store, alert_messages: storeAlertMessages(alerts ?? [], language) })),
  };
}
