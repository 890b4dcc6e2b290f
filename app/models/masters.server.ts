import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { CompanyListQuery, CompanyRow, StoregroupListQuery, StoregroupRow, UsergroupListQuery, UsergroupRow } from '~/domain/master-schemas';
import { AUTHORITY, seesAllStores } from '~/domain/roles';
import { storeVisibleTo } from './stores.server';
import type { Viewer } from './users.server';

// The system masters (001 §2/§7): user groups, companies and store groups. Their lists are
// システム管理's (administrators see every row); the user group lookup of the forms is scoped.

/** `%` `_` and `\` of a search text taken literally in ILIKE. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

const offsetOf = (query: { page_no: number; page_count: number }) => (query.page_no - 1) * query.page_count;

export interface Page<T> {
  all_count: number;
  rows: T[];
}

// ---- user groups ----

/**
 * The user groups a viewer may name in a form (GET /v1/usergroups): administrators and
 * maintenance all; others their own and those linked to a store they see.
 */
export function listUsergroupLookup(db: Db, viewer: Viewer) {
  let query = db.selectFrom('usergroups').select(['usergroups.usergroup_id', 'usergroups.usergroup_name']).orderBy('usergroups.usergroup_id');
  if (!seesAllStores(viewer.authority)) {
    query = query.where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom('user_usergroups as uu').select(sql`1`.as('one')).whereRef('uu.usergroup_id', '=', 'usergroups.usergroup_id').where('uu.user_id', '=', viewer.userId)),
        eb.exists(
          eb
            .selectFrom('store_usergroups as su')
            .innerJoin('stores', 'stores.store_id', 'su.store_id')
            .select(sql`1`.as('one'))
            .whereRef('su.usergroup_id', '=', 'usergroups.usergroup_id')
            .where(storeVisibleTo(viewer)),
        ),
      ]),
    );
  }
  return query.execute();
}

export async function listUsergroupPage(db: Db, query: UsergroupListQuery): Promise<Page<UsergroupRow>> {
  let base = db.selectFrom('usergroups');
  if (query.usergroup_id !== undefined) base = base.where('usergroup_id', '=', query.usergroup_id);
  if (query.usergroup_name) base = base.where('usergroup_name', 'ilike', containing(query.usergroup_name));
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base.select(['usergroup_id', 'usergroup_name', 'usergroup_authority']).orderBy('usergroup_id').limit(query.page_count).offset(offsetOf(query)).execute(),
  ]);
  return { all_count: Number(count.n), rows };
}

export async function getUsergroup(db: Db, usergroupId: number): Promise<UsergroupRow | null> {
  const row = await db.selectFrom('usergroups').select(['usergroup_id', 'usergroup_name', 'usergroup_authority']).where('usergroup_id', '=', usergroupId).executeTakeFirst();
  return row ?? null;
}

/** The same row, locked for the transaction that changes it. */
export async function lockUsergroup(db: Db, usergroupId: number): Promise<UsergroupRow | null> {
  const row = await db.selectFrom('usergroups').select(['usergroup_id', 'usergroup_name', 'usergroup_authority']).where('usergroup_id', '=', usergroupId).forUpdate().executeTakeFirst();
  return row ?? null;
}

export function insertUsergroup(db: Db, values: { usergroup_name: string; usergroup_authority: number }): Promise<UsergroupRow> {
  return db.insertInto('usergroups').values(values).returning(['usergroup_id', 'usergroup_name', 'usergroup_authority']).executeTakeFirstOrThrow();
}

export function updateUsergroup(db: Db, usergroupId: number, values: { usergroup_name: string; usergroup_authority: number }, now: Date): Promise<UsergroupRow> {
  return db
    .updateTable('usergroups')
    .set({ ...values, updated_at: now })
    .where('usergroup_id', '=', usergroupId)
    .returning(['usergroup_id', 'usergroup_name', 'usergroup_authority'])
    .executeTakeFirstOrThrow();
}

export async function deleteUsergroupRow(db: Db, usergroupId: number): Promise<void> {
  await db.deleteFrom('usergroups').where('usergroup_id', '=', usergroupId).execute();
}

/** What holds a user group: a member, a store. */
export async function usergroupUse(db: Db, usergroupId: number): Promise<{ members: boolean; stores: boolean }> {
  const { rows } = await sql<{ members: boolean; stores: boolean }>`
    select exists (select 1 from user_usergroups where usergroup_id = ${usergroupId}) as members,
           exists (select 1 from store_usergroups where usergroup_id = ${usergroupId}) as stores`.execute(db);
  return rows[0];
}

export async function authorityExists(db: Db, authority: number): Promise<boolean> {
  return (await db.selectFrom('authorities').select('authority').where('authority', '=', authority).executeTakeFirst()) !== undefined;
}

/** Whether a valid user belongs to a group of an administrator authority (1-5). */
export async function hasValidAdministrator(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .innerJoin('user_usergroups as uu', 'uu.user_id', 'users.user_id')
    .innerJoin('usergroups as g', 'g.usergroup_id', 'uu.usergroup_id')
    .select('users.user_id')
    .where('users.valid_flg', '=', 1)
    .where('g.usergroup_authority', '>=', AUTHORITY.administrator)
    .where('g.usergroup_authority', '<=', 5)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// ---- companies ----

export async function listCompanyPage(db: Db, query: CompanyListQuery): Promise<Page<CompanyRow>> {
  let base = db.selectFrom('companies');
  if (query.company_id !== undefined) base = base.where('company_id', '=', query.company_id);
  if (query.company_name) base = base.where('company_name', 'ilike', containing(query.company_name));
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base.select(['company_id', 'company_name']).orderBy('company_id').limit(query.page_count).offset(offsetOf(query)).execute(),
  ]);
  return { all_count: Number(count.n), rows };
}

export async function getCompany(db: Db, companyId: string, lock = false): Promise<CompanyRow | null> {
  let query = db.selectFrom('companies').select(['company_id', 'company_name']).where('company_id', '=', companyId);
  if (lock) query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

/** Inserts the company; null when its id is taken (nothing written). */
export async function insertCompany(db: Db, values: CompanyRow): Promise<CompanyRow | null> {
  const row = await db.insertInto('companies').values(values).onConflict((oc) => oc.column('company_id').doNothing()).returning(['company_id', 'company_name']).executeTakeFirst();
  return row ?? null;
}

export function updateCompany(db: Db, values: CompanyRow, now: Date): Promise<CompanyRow> {
  return db
    .updateTable('companies')
    .set({ company_name: values.company_name, updated_at: now })
    .where('company_id', '=', values.company_id)
    .returning(['company_id', 'company_name'])
    .executeTakeFirstOrThrow();
}

export async function deleteCompanyRow(db: Db, companyId: string): Promise<void> {
  await db.deleteFrom('companies').where('company_id', '=', companyId).execute();
}

/** What holds a company: a store, a store group. */
export async function companyUse(db: Db, companyId: string): Promise<{ stores: boolean; storegroups: boolean }> {
  const { rows } = await sql<{ stores: boolean; storegroups: boolean }>`
    select exists (select 1 from stores where company_id = ${companyId}) as stores,
           exists (select 1 from storegroups where company_id = ${companyId}) as storegroups`.execute(db);
  return rows[0];
}

// ---- store groups ----

export async function listStoregroupPage(db: Db, query: StoregroupListQuery): Promise<Page<StoregroupRow>> {
  let base = db.selectFrom('storegroups').innerJoin('companies', 'companies.company_id', 'storegroups.company_id');
  if (query.company_id !== undefined) base = base.where('storegroups.company_id', '=', query.company_id);
  if (query.storegroup_id !== undefined) base = base.where('storegroups.storegroup_id', '=', query.storegroup_id);
  if (query.storegroup_name) base = base.where('storegroups.storegroup_name', 'ilike', containing(query.storegroup_name));
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base
      .select(['storegroups.storegroup_id', 'storegroups.storegroup_name', 'storegroups.company_id', 'companies.company_name'])
      .orderBy('storegroups.company_id')
      .orderBy('storegroups.storegroup_id')
      .limit(query.page_count)
      .offset(offsetOf(query))
      .execute(),
  ]);
  return { all_count: Number(count.n), rows };
}

export async function getStoregroup(db: Db, storegroupId: string, lock = false): Promise<StoregroupRow | null> {
  let query = db
    .selectFrom('storegroups')
    .innerJoin('companies', 'companies.company_id', 'storegroups.company_id')
    .select(['storegroups.storegroup_id', 'storegroups.storegroup_name', 'storegroups.company_id', 'companies.company_name'])
    .where('storegroups.storegroup_id', '=', storegroupId);
  if (lock) query = query.forUpdate(['storegroups']);
  return (await query.executeTakeFirst()) ?? null;
}

type StoregroupValues = Omit<StoregroupRow, 'company_name'>;

/** Inserts the store group; null when its id is taken (nothing written). */
export async function insertStoregroup(db: Db, values: StoregroupValues): Promise<StoregroupValues | null> {
  const row = await db
    .insertInto('storegroups')
    .values(values)
    .onConflict((oc) => oc.column('storegroup_id').doNothing())
    .returning(['storegroup_id', 'storegroup_name', 'company_id'])
    .executeTakeFirst();
  return row ?? null;
}

export function updateStoregroup(db: Db, values: StoregroupValues, now: Date): Promise<StoregroupValues> {
  return db
    .updateTable('storegroups')
    .set({ company_id: values.company_id, storegroup_name: values.storegroup_name, updated_at: now })
    .where('storegroup_id', '=', values.storegroup_id)
    .returning(['storegroup_id', 'storegroup_name', 'company_id'])
    .executeTakeFirstOrThrow();
}

export async function deleteStoregroupRow(db: Db, storegroupId: string): Promise<void> {
  await db.deleteFrom('storegroups').where('storegroup_id', '=', storegroupId).execute();
}

export async function storegroupHasStores(db: Db, storegroupId: string): Promise<boolean> {
  return (await db.selectFrom('stores').select('store_id').where('storegroup_id', '=', storegroupId).limit(1).executeTakeFirst()) !== undefined;
}
