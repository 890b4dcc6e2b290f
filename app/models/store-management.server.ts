import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Db } from '~/db/db.server';
import { toCompactDateTime } from '~/domain/japan-time';
import { usergroupFitsCompany } from '~/domain/store-form';
import { STORE_MESSAGES, type StoreInfo, type StoreSaveInput, type UniqueStoreField } from '~/domain/store-schemas';
import { AUTHORITY, seesAllStores } from '~/domain/roles';
import { revokeGatewayTokens } from './gateways.server';
import { companyVisibleTo } from './lookups.server';
import { canViewStore, lockStore as lockStoreRow, refreshStoreStatus, seesStore, storeVisibleTo, syncStoreListEntries, userSeesStore } from './stores.server';
import { type Viewer, userAuthority } from './users.server';

// The store master as the store management page and POST /v1/stores see it: one store's info,
// its gateway PIN, its users, and the writes behind store save, gateway exchange and removal.
// Every read of a store is scoped by storeVisibleTo(viewer) in its where; the writes are done
// by services/store-gateway.server.ts inside one transaction, on a store row it has locked.

/** GET /v1/stores: the store info of 000 §3 (dates as YYYYMMDD, effective_time YYYYMMDDHHmmss). */
export interface GatewayPin {
  pin_code: string;
  effective_time: string; // YYYYMMDDHHmmss, Japan time
}

const compactDate = (value: string | null) => (value === null ? null : value.replaceAll('-', ''));

/** The store info, or null when it does not exist or the viewer may not see it. PIN fields are left null here. */
export async function getStoreInfo(db: Db, viewer: Viewer, storeId: string): Promise<StoreInfo | null> {
  const row = await db
    .selectFrom('stores')
    .innerJoin('companies', 'companies.company_id', 'stores.company_id')
    .innerJoin('storegroups', 'storegroups.storegroup_id', 'stores.storegroup_id')
    .innerJoin('prefectures', 'prefectures.prefecture_id', 'stores.prefecture_id')
    .select((eb) => [
      'stores.store_id',
      'stores.store_no',
      'stores.store_name',
      'stores.company_id',
      'companies.company_name',
      'stores.storegroup_id',
      'storegroups.storegroup_name',
      'stores.prefecture_id',
      'prefectures.prefecture_name',
      'stores.address',
      'stores.tel_no',
      'stores.opening_date',
      'stores.closing_date',
      'stores.gateway_info',
      'stores.working_state',
      'stores.diagram_id',
      jsonArrayFrom(
        eb
          .selectFrom('store_usergroups as su')
          .innerJoin('usergroups as g', 'g.usergroup_id', 'su.usergroup_id')
          .select(['g.usergroup_id', 'g.usergroup_name'])
          .whereRef('su.store_id', '=', 'stores.store_id')
          .orderBy('g.usergroup_id'),
      ).as('usergroup'),
    ])
    .where('stores.store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
  if (!row) return null;
  return {
    ...row,
    opening_date: compactDate(row.opening_date)!,
    closing_date: compactDate(row.closing_date),
    diagram_id: row.diagram_id || null,
    pin_code: null,
    effective_time: null,
  };
}

// ---- gateway PIN (gateway_pins holds one row per store; expired rows are deleted by the worker) ----

const toPin = (row: { pin_code: string; effective_time: Date }): GatewayPin => ({ pin_code: row.pin_code, effective_time: toCompactDateTime(row.effective_time) });

/** The store's PIN while it is still valid, else null. */
export async function getCurrentPin(db: Db, storeId: string, now: Date): Promise<GatewayPin | null> {
  const row = await db.selectFrom('gateway_pins').select(['pin_code', 'effective_time']).where('store_id', '=', storeId).where('effective_time', '>', now).executeTakeFirst();
  return row ? toPin(row) : null;
}

/**
 * Writes the store's PIN, replacing the previous one. With `keepCurrent`, a PIN that is still
 * valid is kept and null is returned (one statement, so two callers racing cannot both issue).
 */
export async function putPin(db: Db, storeId: string, pin: { pinCode: string; effectiveTime: Date }, now: Date): Promise<GatewayPin> {
  const row = await db
    .insertInto('gateway_pins')
    .values({ store_id: storeId, pin_code: pin.pinCode, effective_time: pin.effectiveTime, issued_at: now })
    .onConflict((oc) => oc.column('store_id').doUpdateSet({ pin_code: pin.pinCode, effective_time: pin.effectiveTime, issued_at: now }))
    .returning(['pin_code', 'effective_time'])
    .executeTakeFirstOrThrow();
  return toPin(row);
}

export async function deletePin(db: Db, storeId: string): Promise<void> {
  await db.deleteFrom('gateway_pins').where('store_id', '=', storeId).execute();
}

// ---- the writes (inside the service's transaction) ----

export interface LockedStore {
  storeId: string;
  storeNo: string;
  storeName: string;
  openingDate: string; // YYYY-MM-DD
  gatewayInfo: string | null;
  workingState: number | null;
  visible: boolean;
}

/**
 * Locks the store row (the one store lock, as ingest takes it) and tells whether the viewer may
 * see it. Null when there is no such store.
 */
export async function lockStore(trx: Db, viewer: Viewer, storeId: string): Promise<LockedStore | null> {
  if (!(await lockStoreRow(trx, storeId))) return null;
  const row = await trx
    .selectFrom('stores')
    .select([
      'stores.store_id as storeId',
      'stores.store_no as storeNo',
      'stores.store_name as storeName',
      'stores.opening_date as openingDate',
      'stores.gateway_info as gatewayInfo',
      'stores.working_state as workingState',
      (eb) => sql<boolean>`${storeVisibleTo(viewer)(eb)}`.as('visible'),
    ])
    .where('stores.store_id', '=', storeId)
    .executeTakeFirst();
  return row ?? null;
}

/** The unique fields of a store save, and whether it creates the store. */
export interface UniqueStoreValues {
  storeId: string;
  storeNo: string;
  storeName: string;
  gatewayInfo: string | null;
  creating: boolean;
}

/** The unique fields whose value another store already holds (store_id counts only for a create). */
export async function findDuplicateFields(db: Db, input: UniqueStoreValues): Promise<UniqueStoreField[]> {
  return (await findDuplicateFieldsOf(db, [input]))[0];
}

/** findDuplicateFields of many saves in one query (the store import): each unique column is found by its index. */
export async function findDuplicateFieldsOf(db: Db, inputs: readonly UniqueStoreValues[]): Promise<UniqueStoreField[][]> {
  if (inputs.length === 0) return [];
  const created = inputs.filter((input) => input.creating).map((input) => input.storeId);
  const gateways = inputs.flatMap((input) => (input.gatewayInfo === null ? [] : [input.gatewayInfo]));
  const rows = await db
    .selectFrom('stores')
    .select(['store_id', 'store_no', 'store_name', 'gateway_info'])
    .where((eb) =>
      eb.or([
        ...(created.length > 0 ? [eb('store_id', 'in', created)] : []),
        eb('store_no', 'in', inputs.map((input) => input.storeNo)),
        eb('store_name', 'in', inputs.map((input) => input.storeName)),
        ...(gateways.length > 0 ? [eb('gateway_info', 'in', gateways)] : []),
      ]),
    )
    .execute();
  return inputs.map((input) => {
    // An update's own row holds its own values.
    const others = input.creating ? rows : rows.filter((row) => row.store_id !== input.storeId);
    const fields: UniqueStoreField[] = [];
    if (input.creating && others.some((row) => row.store_id === input.storeId)) fields.push('store_id');
    if (others.some((row) => row.store_no === input.storeNo)) fields.push('store_no');
    if (others.some((row) => row.store_name === input.storeName)) fields.push('store_name');
    if (input.gatewayInfo !== null && others.some((row) => row.gateway_info === input.gatewayInfo)) fields.push('gateway_info');
    return fields;
  });
}

/** The unique field of a store whose unique violation (23505) `error` is, else null (not a store duplicate). */
export function duplicateFieldOf(error: unknown): UniqueStoreField | null {
  const pg = error as { code?: string; constraint?: string };
  if (pg?.code !== '23505') return null;
  const byConstraint: Record<string, UniqueStoreField> = {
    stores_pkey: 'store_id',
    stores_store_no_key: 'store_no',
    stores_store_name_key: 'store_name',
    stores_gateway_info_key: 'gateway_info',
  };
  return byConstraint[pg.constraint ?? ''] ?? null;
}

/** The gateway field alone, for an exchange. */
export async function gatewayHeldByAnotherStore(db: Db, storeId: string, gatewayInfo: string): Promise<boolean> {
  const row = await db.selectFrom('stores').select('store_id').where('gateway_info', '=', gatewayInfo).where('store_id', '!=', storeId).executeTakeFirst();
  return row !== undefined;
}

type StoreReferences = Pick<StoreSaveInput, 'storegroup_id' | 'company_id' | 'prefecture_id' | 'usergroup'> & { store_id?: string };

/**
 * Checks the references of a store save: the store group exists (and belongs to company_id
 * when one is given), the prefecture exists, every user group exists. Returns the store
 * group's company and the fields that are wrong.
 */
export async function checkStoreReferences(db: Db, input: StoreReferences): Promise<{ companyId: string | null; fields: Record<string, string> }> {
  return (await checkStoreReferencesOf(db, [input]))[0];
}

/** checkStoreReferences of many saves, in three queries whatever their number (the store import). */
export async function checkStoreReferencesOf(db: Db, inputs: readonly StoreReferences[]): Promise<{ companyId: string | null; fields: Record<string, string> }[]> {
  const distinct = <T>(values: T[]) => [...new Set(values)];
  const storegroupIds = distinct(inputs.map((input) => input.storegroup_id));
  const prefectureIds = distinct(inputs.map((input) => input.prefecture_id));
  const usergroupIds = distinct(inputs.flatMap((input) => input.usergroup));
  const [groups, prefectures, usergroups, companyLinks] = await Promise.all([
    storegroupIds.length ? db.selectFrom('storegroups').select(['storegroup_id', 'company_id']).where('storegroup_id', 'in', storegroupIds).execute() : [],
    prefectureIds.length ? db.selectFrom('prefectures').select('prefecture_id').where('prefecture_id', 'in', prefectureIds).execute() : [],
    usergroupIds.length ? db.selectFrom('usergroups').select(['usergroup_id', 'usergroup_authority']).where('usergroup_id', 'in', usergroupIds).execute() : [],
    usergroupCompanyLinks(db, usergroupIds),
  ]);
  const companyOf = new Map(groups.map((group) => [group.storegroup_id, group.company_id]));
  const knownPrefectures = new Set(prefectures.map((prefecture) => prefecture.prefecture_id));
  const knownGroups = new Set(usergroups.map((group) => group.usergroup_id));
  const staffGroups = new Set(usergroups.filter((group) => seesAllStores(group.usergroup_authority)).map((group) => group.usergroup_id));
  return inputs.map((input) => {
    const fields: Record<string, string> = {};
    const companyId = companyOf.get(input.storegroup_id);
    if (companyId === undefined) fields.storegroup_id = '存在しない店舗グループです';
    else if (input.company_id !== undefined && input.company_id !== companyId) fields.storegroup_id = '選択した会社の店舗グループではありません';
    if (!knownPrefectures.has(input.prefecture_id)) fields.prefecture_id = '存在しない都道府県です';
    const unknownIndex = input.usergroup.findIndex((id) => !knownGroups.has(id));
    if (unknownIndex >= 0) fields.usergroup = `存在しないユーザーグループです (${input.usergroup[unknownIndex]})`;
    // A store's user group is whom the store's new-user page preselects: a staff group there would
    // make a "store user" an administrator, and staff see every store without a link anyway.
    else if (input.usergroup.some((id) => staffGroups.has(id))) fields.usergroup = STORE_MESSAGES.staffGroup;
    else if (companyId !== undefined) {
      const companiesOf = usergroupCompanies(companyLinks, input.store_id ?? null);
      if (input.usergroup.some((id) => !usergroupFitsCompany(companiesOf.get(id) ?? [], companyId))) fields.usergroup = STORE_MESSAGES.otherCompanyGroup;
    }
    return { companyId: companyId ?? null, fields };
  });
}

/** A user group's tie to a company: a store of that company linked to it (store_id), or a user of that company in it (store_id null). */
export interface UsergroupCompanyLink {
  usergroup_id: number;
  company_id: string;
  store_id: string | null;
}

/** The company ties of the given user groups ('all': of every group), in one query (decision 271). */
export async function usergroupCompanyLinks(db: Db, usergroupIds: readonly number[] | 'all'): Promise<UsergroupCompanyLink[]> {
  if (usergroupIds !== 'all' && usergroupIds.length === 0) return [];
  const stores = db
    .selectFrom('store_usergroups as su')
    .innerJoin('stores as s', 's.store_id', 'su.store_id')
    .select(['su.usergroup_id', 's.company_id', sql<string | null>`s.store_id`.as('store_id')])
    .$if(usergroupIds !== 'all', (query) => query.where('su.usergroup_id', 'in', usergroupIds as number[]));
  const members = db
    .selectFrom('user_usergroups as uu')
    .innerJoin('users as u', 'u.user_id', 'uu.user_id')
    .select(['uu.usergroup_id', sql<string>`u.company_id`.as('company_id'), sql<string | null>`null::text`.as('store_id')])
    .where('u.company_id', 'is not', null)
    .$if(usergroupIds !== 'all', (query) => query.where('uu.usergroup_id', 'in', usergroupIds as number[]));
  return stores.union(members).execute();
}

/** The companies of each group from its links, leaving out the links of the store being saved (its company is what the save decides). */
export function usergroupCompanies(links: readonly UsergroupCompanyLink[], exceptStoreId: string | null): Map<number, string[]> {
  const companies = new Map<number, string[]>();
  for (const link of links) {
    if (exceptStoreId !== null && link.store_id === exceptStoreId) continue;
    const list = companies.get(link.usergroup_id) ?? [];
    if (!list.includes(link.company_id)) companies.set(link.usergroup_id, [...list, link.company_id]);
  }
  return companies;
}

/** The referenced ids of a store save the viewer may not see (404) or may not assign (403), by field. */
export interface StoreReferenceScope {
  hidden: string[];
  forbidden: string[];
  /** Creating, none of the user groups is the viewer's own. */
  noOwnGroup: boolean;
  /** Updating, the groups the save would unlink that the viewer could not link back (decision 277). */
  unremovable: string[];
}

/**
 * DESIGN.md "Scoped": a case or area manager may use only the companies (and their store groups)
 * of stores they see, may assign only their own user groups or store-user (101) groups linked to
 * stores they see (never a more privileged group), and creates stores only linked to one of their
 * groups. Groups already linked to the store being updated may stay. Staff who see every store
 * may use anything. Ids that do not exist are left to checkStoreReferences (400).
 */
export async function scopeStoreReferences(
  db: Db,
  viewer: Viewer,
  input: Pick<StoreSaveInput, 'store_id' | 'storegroup_id' | 'company_id' | 'usergroup'>,
  creating: boolean,
): Promise<StoreReferenceScope> {
  const scope: StoreReferenceScope = { hidden: [], forbidden: [], noOwnGroup: false, unremovable: [] };
  if (seesAllStores(viewer.authority)) return scope;
  const [storegroup, company, groups, unremovable] = await Promise.all([
    db
      .selectFrom('storegroups')
      .select((eb) => sql<boolean>`${companyVisibleTo(viewer, eb.ref('storegroups.company_id'))(eb)}`.as('visible'))
      .where('storegroup_id', '=', input.storegroup_id)
      .executeTakeFirst(),
    input.company_id === undefined
      ? undefined
      : db.selectFrom('companies').select((eb) => sql<boolean>`${companyVisibleTo(viewer, eb.ref('companies.company_id'))(eb)}`.as('visible')).where('company_id', '=', input.company_id).executeTakeFirst(),
    input.usergroup.length === 0
      ? []
      : db
          .selectFrom('usergroups as g')
          .select((eb) => [
            'g.usergroup_id',
            'g.usergroup_authority',
            eb.exists(eb.selectFrom('user_usergroups as uu').select('uu.user_id').whereRef('uu.usergroup_id', '=', 'g.usergroup_id').where('uu.user_id', '=', viewer.userId)).as('own'),
            eb
              // (not `su`: the visibility predicate's own subquery is aliased so)
              .exists(eb.selectFrom('store_usergroups as linked').select('linked.store_id').whereRef('linked.usergroup_id', '=', 'g.usergroup_id').where((inner) => userSeesStore(inner, viewer, inner.ref('linked.store_id'))))
              .as('onVisibleStore'),
            (creating
              ? eb.val(false)
              : eb.exists(eb.selectFrom('store_usergroups as su').select('su.store_id').whereRef('su.usergroup_id', '=', 'g.usergroup_id').where('su.store_id', '=', input.store_id))
            ).as('onThisStore'),
          ])
          .where('g.usergroup_id', 'in', input.usergroup)
          .execute(),
    // A manager may unlink only a group they could link back (decision 277): their own, or a
    // store-user group linked to another store they see. Dropping the case manager's group (or a
    // peer's) would take the store from its supervisor for good. Staff groups always go (245).
    creating
      ? []
      : db
          .selectFrom('store_usergroups as su')
          .innerJoin('usergroups as g', 'g.usergroup_id', 'su.usergroup_id')
          .select('g.usergroup_id')
          .where('su.store_id', '=', input.store_id)
          .where('g.usergroup_authority', '>', AUTHORITY.maintenance)
          .$if(input.usergroup.length > 0, (query) => query.where('g.usergroup_id', 'not in', input.usergroup))
          .where((eb) => eb.not(eb.exists(eb.selectFrom('user_usergroups as uu').select('uu.user_id').whereRef('uu.usergroup_id', '=', 'g.usergroup_id').where('uu.user_id', '=', viewer.userId))))
          .where((eb) =>
            eb.or([
              eb('g.usergroup_authority', '!=', AUTHORITY.storeUser),
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('store_usergroups as elsewhere')
                    .select('elsewhere.store_id')
                    .whereRef('elsewhere.usergroup_id', '=', 'g.usergroup_id')
                    .where('elsewhere.store_id', '!=', input.store_id)
                    .where((inner) => userSeesStore(inner, viewer, inner.ref('elsewhere.store_id'))),
                ),
              ),
            ]),
          )
          .orderBy('g.usergroup_id')
          .execute(),
  ]);
  scope.unremovable = unremovable.map((group) => `usergroup ${group.usergroup_id}`);
  if (storegroup && !storegroup.visible) scope.hidden.push('storegroup_id');
  if (company && !company.visible) scope.hidden.push('company_id');
  for (const group of groups) {
    if (group.own || (!creating && group.onThisStore)) continue;
    if (!group.onVisibleStore) scope.hidden.push(`usergroup ${group.usergroup_id}`);
    else if (group.usergroup_authority !== AUTHORITY.storeUser) scope.forbidden.push(`usergroup ${group.usergroup_id}`);
  }
  scope.noOwnGroup = creating && !groups.some((group) => group.own);
  return scope;
}

const storeColumns = (input: StoreSaveInput, companyId: string) => ({
  store_no: input.store_no,
  store_name: input.store_name,
  company_id: companyId,
  storegroup_id: input.storegroup_id,
  prefecture_id: input.prefecture_id,
  address: input.address,
  tel_no: input.tel_no,
  opening_date: input.opening_date,
  closing_date: input.closing_date,
});

export async function insertStore(trx: Db, input: StoreSaveInput, companyId: string, workingState: number | null, now: Date): Promise<void> {
  await trx
    .insertInto('stores')
    .values({ store_id: input.store_id, ...storeColumns(input, companyId), gateway_info: input.gateway_info, working_state: workingState, store_status: 0, created_at: now, updated_at: now })
    .execute();
  await syncStoreListEntries(trx, [input.store_id]);
  await replaceStoreUsergroups(trx, input.store_id, input.usergroup);
}

/** A new store of an import: the save's input, its store group's company and its working state. */
export interface NewStore {
  input: StoreSaveInput;
  companyId: string;
  workingState: number | null;
}

/** insertStore of many stores: two statements over arrays (unnest), whatever their number. */
export async function insertStores(trx: Db, stores: readonly NewStore[], now: Date): Promise<void> {
  if (stores.length === 0) return;
  const column = <T>(pick: (store: NewStore) => T) => stores.map(pick);
  await sql`
    insert into stores (store_id, store_no, store_name, company_id, storegroup_id, prefecture_id, address, tel_no, opening_date, closing_date, gateway_info, working_state, store_status, created_at, updated_at)
    select s.*, 0, ${now}, ${now}
    from unnest(
      ${column((s) => s.input.store_id)}::text[], ${column((s) => s.input.store_no)}::text[], ${column((s) => s.input.store_name)}::text[],
      ${column((s) => s.companyId)}::text[], ${column((s) => s.input.storegroup_id)}::text[], ${column((s) => s.input.prefecture_id)}::int2[],
      ${column((s) => s.input.address)}::text[], ${column((s) => s.input.tel_no)}::text[], ${column((s) => s.input.opening_date)}::date[],
      ${column((s) => s.input.closing_date)}::date[], ${column((s) => s.input.gateway_info)}::text[], ${column((s) => s.workingState)}::int2[]
    ) as s`.execute(trx);
  await syncStoreListEntries(trx, column((s) => s.input.store_id));
  const links = stores.flatMap((store) => store.input.usergroup.map((usergroupId) => [store.input.store_id, usergroupId] as const));
  await sql`
    insert into store_usergroups (store_id, usergroup_id)
    select * from unnest(${links.map(([storeId]) => storeId)}::text[], ${links.map(([, usergroupId]) => usergroupId)}::int4[])`.execute(trx);
}

/** The user groups of each name (a name may be shared: a name of several groups has several ids). */
export async function usergroupIdsByName(db: Db, names: readonly string[]): Promise<Map<string, number[]>> {
  const byName = new Map<string, number[]>();
  if (names.length === 0) return byName;
  const rows = await db.selectFrom('usergroups').select(['usergroup_id', 'usergroup_name']).where('usergroup_name', 'in', [...new Set(names)]).orderBy('usergroup_id').execute();
  for (const row of rows) byName.set(row.usergroup_name, [...(byName.get(row.usergroup_name) ?? []), row.usergroup_id]);
  return byName;
}

/** Updates the master fields (not the gateway: see setStoreGateway). */
export async function updateStoreMaster(trx: Db, input: StoreSaveInput, companyId: string, now: Date): Promise<void> {
  await trx.updateTable('stores').set({ ...storeColumns(input, companyId), updated_at: now }).where('store_id', '=', input.store_id).execute();
  await syncStoreListEntries(trx, [input.store_id]);
  await replaceStoreUsergroups(trx, input.store_id, input.usergroup);
}

async function replaceStoreUsergroups(trx: Db, storeId: string, usergroupIds: number[]): Promise<void> {
  await trx.deleteFrom('store_usergroups').where('store_id', '=', storeId).where('usergroup_id', 'not in', usergroupIds).execute();
  await trx
    .insertInto('store_usergroups')
    .values(usergroupIds.map((usergroup_id) => ({ store_id: storeId, usergroup_id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * Sets the store's gateway and working state: the store's gateway tokens are revoked (the old
 * gateway can upload no more), and the store's status follows the new working state. With
 * `gatewayDown` the gateway-down flag is set too (removal clears it).
 */
export async function setStoreGateway(trx: Db, storeId: string, change: { gatewayInfo: string | null; workingState: number | null; gatewayDown?: boolean }, now: Date): Promise<void> {
  await trx
    .updateTable('stores')
    .set({
      gateway_info: change.gatewayInfo,
      working_state: change.workingState,
      ...(change.gatewayDown === undefined ? {} : { gateway_down: change.gatewayDown }),
      updated_at: now,
    })
    .where('store_id', '=', storeId)
    .execute();
  await revokeGatewayTokens(trx, storeId, now);
  await refreshStoreStatus(trx, storeId);
}

/**
 * Ends the store's open alerts at `now` (the store was removed): history rows get their end,
 * sensors lose their alert state, and nothing is mailed. Measurements and history stay.
 */
export async function endStoreAlerts(trx: Db, storeId: string, now: Date): Promise<number> {
  const ended = await trx.updateTable('alert_history').set({ recovered_at: now }).where('store_id', '=', storeId).where('recovered_at', 'is', null).executeTakeFirst();
  await trx
    .updateTable('sensor_states')
    .set({ status: 0, alert_codes: sql`'{}'`, engine_state: sql`engine_state - 'openAlerts' - 'pendingSince'`, updated_at: now })
    .where('store_id', '=', storeId)
    .execute();
  return Number(ended.numUpdatedRows);
}

// ---- GET /v1/store_users ----

export interface StoreUser {
  user_id: number;
  login_id: string;
  user_name: string;
  tel_no: string | null;
  mailaddress1: string | null;
  mailaddress2: string | null;
  mailaddress3: string | null;
  language: 'JP' | 'US';
  valid_flg: number;
  notice_flg: number;
  alert_filter: number;
  authority: number;
}

/** The most users one call returns (a store's users are tens; this bounds the answer). */
export const STORE_USERS_LIMIT = 500;

/**
 * Everyone who can see the store (and so may be mailed about it): the members of the store's
 * user groups, plus administrators and maintenance staff, who see every store (seesStore, from
 * indexed walks, never a scan of all users' groups). Ordered by name. Null when the viewer may
 * not see the store.
 */
export async function listStoreUsers(db: Db, viewer: Viewer, storeId: string): Promise<StoreUser[] | null> {
  if (!(await canViewStore(db, viewer, storeId))) return null;
  return db
    .selectFrom('users')
    .select([
      'users.user_id',
      'users.login_id',
      'users.user_name',
      'users.tel_no',
      'users.mailaddress1',
      'users.mailaddress2',
      'users.mailaddress3',
      'users.language',
      'users.valid_flg',
      'users.notice_flg',
      'users.alert_filter',
      userAuthority.as('authority'),
    ])
    .where(seesStore(storeId))
    .orderBy('users.user_name')
    .orderBy('users.user_id')
    .limit(STORE_USERS_LIMIT)
    .execute();
}
