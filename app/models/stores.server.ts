import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { Database } from '~/db/schema';
import type { AlertCode } from '~/domain/alert-codes';
import type { StoreConnection } from '~/domain/alert-engine';
import { storeStatus } from '~/domain/store-status';
import { AUTHORITY, seesAllStores } from '~/domain/roles';
import type { Viewer } from './users.server';

// ---- the store-visibility rule: the one predicate every store-scoped query uses ----

/** The authorities that see every store (the role table's seesAllStores), as a list for SQL. */
const ALL_STORES_AUTHORITIES = Array.from({ length: AUTHORITY.storeUser + 1 }, (_, authority) => authority).filter(seesAllStores);

/**
 * Who sees which store (DESIGN.md "Authentication and access"): a user sees a store when one of
 * their user groups sees every store (administrators, maintenance) or is linked to the store.
 * `user` is either a signed-in viewer, whose authority (the lowest of their groups) is known, so
 * staff skip the subquery, or a users.user_id column, for "the users who see this store".
 * (`any`: it is a where-condition for any query: on stores, users or a table with a store_id.)
 */
export function userSeesStore(eb: ExpressionBuilder<Database, any>, user: Viewer | Expression<number>, storeId: string | Expression<string>): Expression<SqlBool> {
  const membersOfStoreGroups = storeGroupLinks(eb).where('su.store_id', '=', storeId);
  if ('authority' in user) {
    if (seesAllStores(user.authority)) return sql<SqlBool>`true`;
    return eb.exists(membersOfStoreGroups.select(sql`1`.as('one')).where('uu.user_id', '=', user.userId));
  }
  const staff = eb
    .selectFrom('user_usergroups as uu')
    .innerJoin('usergroups as g', 'g.usergroup_id', 'uu.usergroup_id')
    .select('uu.user_id')
    .where('g.usergroup_authority', 'in', ALL_STORES_AUTHORITIES);
  // One set, built once per query from two indexed walks, rather than a subquery per user.
  return eb(user, 'in', membersOfStoreGroups.select('uu.user_id').union(staff));
}

/** Stores (su) linked to the groups of users (uu). */
const storeGroupLinks = (eb: ExpressionBuilder<Database, any>) =>
  eb.selectFrom('store_usergroups as su').innerJoin('user_usergroups as uu', 'uu.usergroup_id', 'su.usergroup_id');

/** The where-condition that limits `stores` to what the viewer may see. */
export function storeVisibleTo(viewer: Viewer) {
  return (eb: ExpressionBuilder<Database, 'stores'>) => userSeesStore(eb, viewer, eb.ref('stores.store_id'));
}

/**
 * The same rule for a walk over many stores (the dashboard's list): `store in (the stores linked
 * to the viewer's groups)`, that set fenced (offset 0) so PostgreSQL builds it once as a hash. As
 * a correlated exists it was probed per store: the first page of an area manager's 15 stores
 * walked the whole chain's order index with two index probes per store (260 ms at 20,000).
 */
export function storeAmongSeenBy(viewer: Viewer, storeId: string) {
  return (eb: ExpressionBuilder<Database, any>): Expression<SqlBool> => {
    if (seesAllStores(viewer.authority)) return sql<SqlBool>`true`;
    const linked = storeGroupLinks(eb).select('su.store_id').where('uu.user_id', '=', viewer.userId).offset(0);
    return eb(eb.ref(storeId), 'in', linked);
  };
}

/** `exists (store storeId, visible to the viewer)`, for queries on the tables that carry a store_id. */
export function visibleStoreExists(viewer: Viewer, storeId: string | Expression<string | null>) {
  return (eb: ExpressionBuilder<Database, any>) => eb.exists(eb.selectFrom('stores').select(sql`1`.as('one')).where('stores.store_id', '=', storeId).where(storeVisibleTo(viewer)));
}

/** The where-condition that limits `users` to those who see the store (and so may be mailed about it). */
export function seesStore(storeId: string) {
  return (eb: ExpressionBuilder<Database, 'users'>) => userSeesStore(eb, eb.ref('users.user_id'), storeId);
}

export async function canViewStore(db: Db, viewer: Viewer, storeId: string): Promise<boolean> {
  const row = await db
    .selectFrom('stores')
    .select('stores.store_id')
    .where('stores.store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
  return row !== undefined;
}

export interface StoreHeader {
  storeId: string;
  storeName: string;
  workingState: number | null;
}

/** The store's name and working state for the store layout, or null when the viewer may not see it. */
export async function getStoreHeader(db: Db, viewer: Viewer, storeId: string): Promise<StoreHeader | null> {
  const row = await db
    .selectFrom('stores')
    .select(['stores.store_id as storeId', 'stores.store_name as storeName', 'stores.working_state as workingState'])
    .where('stores.store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
  return row ?? null;
}

// ---- the store row lock and the store status ------------------------------------------------

/** The locked store as the alert engine sees it. */
export interface StoreLock extends StoreConnection {
  storeId: string;
  storeName: string;
  lastGatewayContactAt: Date | null;
}

/**
 * Locks the store row for the transaction: ingest, the no-communication check, an alert stop,
 * diagram edits and store management all take this lock first, so they never interleave on one
 * store. FOR NO KEY UPDATE conflicts with itself (and FOR UPDATE) but not with the foreign-key
 * checks of rows being added for the store elsewhere. Null for an unknown store.
 */
export async function lockStore(trx: Db, storeId: string): Promise<StoreLock | null> {
  const [store] = await lockStores(trx, [storeId]);
  return store ?? null;
}

/** lockStore for many stores in one statement, in store-id order (every writer locks in that order, so two cannot deadlock); unknown stores are left out. */
export async function lockStores(trx: Db, storeIds: readonly string[]): Promise<StoreLock[]> {
  if (storeIds.length === 0) return [];
  return trx
    .selectFrom('stores')
    .select([
      'stores.store_id as storeId',
      'stores.store_name as storeName',
      'stores.working_state as workingState',
      'stores.gateway_down as gatewayDown',
      'stores.last_gateway_contact_at as lastGatewayContactAt',
    ])
    .where('stores.store_id', '=', sql<string>`any(${storeIds}::text[])`)
    .orderBy('stores.store_id')
    .forNoKeyUpdate()
    .execute();
}

/** The columns an alert evaluation may change on the stores row. */
export interface StoreConnectionChange {
  lastGatewayContactAt?: Date;
  workingState?: number | null;
  gatewayDown?: boolean;
}

function connectionColumns(change: StoreConnectionChange) {
  return {
    ...(change.lastGatewayContactAt !== undefined && { last_gateway_contact_at: change.lastGatewayContactAt }),
    ...(change.workingState !== undefined && { working_state: change.workingState }),
    ...(change.gatewayDown !== undefined && { gateway_down: change.gatewayDown }),
  };
}

/** Writes the store's connection columns (when `connection` changes any), then its status (writeStoreStatuses). */
export async function refreshStoreStatus(trx: Db, storeId: string, connection: StoreConnectionChange = {}): Promise<void> {
  const set = connectionColumns(connection);
  // The states this transaction saved are read here: the status follows them. Two plain reads
  // rather than one RETURNING with a subquery, which Citus refuses on a reference table.
  const store =
    Object.keys(set).length > 0
      ? await trx.updateTable('stores').set(set).where('stores.store_id', '=', storeId).returning(['stores.store_id', 'stores.working_state', 'stores.gateway_down']).executeTakeFirstOrThrow()
      : await trx.selectFrom('stores').select(['stores.store_id', 'stores.working_state', 'stores.gateway_down']).where('stores.store_id', '=', storeId).executeTakeFirstOrThrow();
  await writeStoreStatuses(trx, [store]);
}

/** A gateway's contact with its store, as the ingest writer saves it for many stores at once. */
export interface StoreContact {
  storeId: string;
  lastGatewayContactAt: Date;
  workingState: number | null;
  gatewayDown: boolean;
}

/**
 * Saves many stores' contact columns in one statement. The ingest writer saves them before the
 * batch's readings and states: Citus refuses a write to a reference table after a write to
 * several shards in one transaction, and runs the later ones one shard after the other instead.
 */
export async function saveStoreContacts(trx: Db, contacts: readonly StoreContact[]): Promise<void> {
  if (contacts.length === 0) return;
  await sql`
    update stores set last_gateway_contact_at = c.contact, working_state = c.working_state, gateway_down = c.gateway_down
    from unnest(${contacts.map((c) => c.storeId)}::text[], ${contacts.map((c) => c.lastGatewayContactAt.toISOString())}::timestamptz[],
      ${contacts.map((c) => c.workingState)}::smallint[], ${contacts.map((c) => c.gatewayDown)}::boolean[]) as c(store_id, contact, working_state, gateway_down)
    where stores.store_id = c.store_id`.execute(trx);
}

/** refreshStoreStatus for many stores whose connection columns are saved and known. */
export async function refreshStoreStatuses(trx: Db, contacts: readonly StoreContact[]): Promise<void> {
  if (contacts.length === 0) return;
  await writeStoreStatuses(trx, contacts.map((c) => ({ store_id: c.storeId, working_state: c.workingState, gateway_down: c.gatewayDown })));
}

interface StoreStatusInputs {
  store_id: string;
  working_state: number | null;
  gateway_down: boolean;
}

/**
 * Recomputes stores.store_status from the stored working state, gateway flag and the open alerts
 * of the sensors whose status is above 0 (every sensor with an open alert: the engine gives such
 * a sensor status 1 or 2, and the dashboard lists alert messages from the same rows, by the
 * partial index sensor_states_alerting), then tells live screens at commit.
 */
async function writeStoreStatuses(trx: Db, stores: readonly StoreStatusInputs[]): Promise<void> {
  const storeIds = stores.map((store) => store.store_id);
  const alerting = await trx
    .selectFrom('sensor_states')
    .select(['store_id', 'alert_codes as openCodes'])
    .where('store_id', '=', sql<string>`any(${storeIds}::text[])`)
    .where('status', '>', 0)
    .execute();
  const openCodesOf = new Map<string, { openCodes: AlertCode[] }[]>();
  for (const sensor of alerting) {
    const list = openCodesOf.get(sensor.store_id) ?? [];
    list.push({ openCodes: sensor.openCodes as AlertCode[] });
    openCodesOf.set(sensor.store_id, list);
  }
  const statuses = stores.map((store) => storeStatus(store.working_state, store.gateway_down, openCodesOf.get(store.store_id) ?? []));
  // Delivered at commit: live screens (server-sent events) refresh within seconds.
  await sql`
    with s as (select * from unnest(${storeIds}::text[], ${statuses}::smallint[]) as s(store_id, store_status)),
      changed as (update stores set store_status = s.store_status from s where stores.store_id = s.store_id and stores.store_status != s.store_status),
      listed as (update store_list_entries set store_status = s.store_status from s where store_list_entries.store_id = s.store_id and store_list_entries.store_status != s.store_status)
    select pg_notify('onreco_store', s.store_id) from s`.execute(trx);
}

/**
 * Brings the dashboard's entries of these stores (store_list_entries, decision 180) in line with
 * their stores rows: after a store is added and after every write of its number, name, status,
 * place, company or group (a removed store's entry goes with it: a foreign key on delete
 * cascade). Model code rather than a trigger on stores: Citus runs a
 * reference table's trigger on its shards, where it cannot write another reference table
 * (decision 225).
 */
export async function syncStoreListEntries(trx: Db, storeIds: readonly string[] | 'every store'): Promise<void> {
  if (storeIds.length === 0) return;
  await sql`
    insert into store_list_entries (store_id, store_no, store_name, store_status, prefecture_id, company_id, storegroup_id)
    select store_id, store_no, store_name, store_status, prefecture_id, company_id, storegroup_id from stores
    where ${storeIds === 'every store' ? sql`true` : sql`store_id = any(${storeIds}::text[])`}
    on conflict (store_id) do update set store_no = excluded.store_no, store_name = excluded.store_name, store_status = excluded.store_status,
      prefecture_id = excluded.prefecture_id, company_id = excluded.company_id, storegroup_id = excluded.storegroup_id`.execute(trx);
}
