import { type ExpressionBuilder, type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { Database } from '~/db/schema';
import { AUTHORITY, isAdministrator } from '~/domain/roles';
import { pageWindow } from '~/domain/paging';
import type { UniqueUserField, UserListQuery, UserRow, UserSaveInput } from '~/domain/user-master';
import { companyVisibleTo } from './lookups.server';
import { userAuthority, type Viewer } from './users.server';

// The user master's queries (001 §2 User master, store users; §7 /v1/users/edit). Every query is
// scoped by what the viewer may see (DESIGN.md "Scoped"): administrators see every user; a case or
// area manager sees the members of the groups they may assign, which are their own groups and the
// store-user (101) groups linked to the stores they see. Deleted users are tombstones (deleted_at):
// never listed, never members of a group, but their row keeps the name that history shows.

/** The user groups a case or area manager may assign: their own, and store-user groups linked to a store one of their groups is linked to. */
function assignableGroupIds(eb: ExpressionBuilder<Database, any>, viewer: Viewer) {
  const own = eb.selectFrom('user_usergroups as mine').select('mine.usergroup_id').where('mine.user_id', '=', viewer.userId);
  const storeUserGroups = eb
    .selectFrom('user_usergroups as mine')
    .innerJoin('store_usergroups as su_mine', 'su_mine.usergroup_id', 'mine.usergroup_id')
    .innerJoin('store_usergroups as su_other', 'su_other.store_id', 'su_mine.store_id')
    .innerJoin('usergroups as g101', 'g101.usergroup_id', 'su_other.usergroup_id')
    .select('su_other.usergroup_id')
    .where('mine.user_id', '=', viewer.userId)
    .where('g101.usergroup_authority', '=', AUTHORITY.storeUser);
  return own.union(storeUserGroups);
}

/** The groups the viewer may see (and so be told about with 403 rather than 404): the assignable ones and every group linked to a store they see. */
function visibleGroupIds(eb: ExpressionBuilder<Database, any>, viewer: Viewer) {
  const onMyStores = eb
    .selectFrom('user_usergroups as mine')
    .innerJoin('store_usergroups as su_mine', 'su_mine.usergroup_id', 'mine.usergroup_id')
    .innerJoin('store_usergroups as su_other', 'su_other.store_id', 'su_mine.store_id')
    .select('su_other.usergroup_id')
    .where('mine.user_id', '=', viewer.userId);
  return assignableGroupIds(eb, viewer).union(onMyStores);
}

/** The where-condition that limits `users` to the live users the viewer may see. */
export function userVisibleTo(viewer: Viewer) {
  return (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> => {
    const live = eb('users.deleted_at', 'is', null);
    if (isAdministrator(viewer.authority)) return live;
    const members = eb.selectFrom('user_usergroups as member').select('member.user_id').where('member.usergroup_id', 'in', assignableGroupIds(eb, viewer));
    return eb.and([live, eb('users.user_id', 'in', members)]);
  };
}

const mailsOf = sql<string>`lower(coalesce(users.mailaddress1, '') || ' ' || coalesce(users.mailaddress2, '') || ' ' || coalesce(users.mailaddress3, ''))`;
const likePart = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function usersQuery(db: Db, viewer: Viewer, query: Partial<UserListQuery>) {
  let q = db.selectFrom('users').where(userVisibleTo(viewer));
  if (query.user_id !== undefined) q = q.where('users.user_id', '=', query.user_id);
  if (query.valid_flg !== undefined) q = q.where('users.valid_flg', '=', query.valid_flg);
  if (query.alert_filter !== undefined) q = q.where('users.alert_filter', '=', query.alert_filter);
  if (query.user_name) q = q.where('users.user_name', 'ilike', likePart(query.user_name));
  if (query.mailaddress) q = q.where(mailsOf, 'like', likePart(query.mailaddress.toLowerCase()));
  if (query.usergroup_id !== undefined) {
    const groupId = query.usergroup_id;
    q = q.where((eb) => eb.exists(eb.selectFrom('user_usergroups as f').select('f.user_id').whereRef('f.user_id', '=', 'users.user_id').where('f.usergroup_id', '=', groupId)));
  }
  return q;
}

/** The list's columns for the users of `users`: their company, authority and groups. */
function withColumns<Q extends ReturnType<typeof usersQuery>>(users: Q) {
  return users
    .leftJoin('companies', 'companies.company_id', 'users.company_id')
    .select((eb) => [
      'users.user_id',
      'users.login_id',
      'users.user_name',
      'users.company_id',
      'companies.company_name',
      'users.tel_no',
      'users.mailaddress1',
      'users.mailaddress2',
      'users.mailaddress3',
      'users.language',
      'users.valid_flg',
      'users.notice_flg',
      'users.alert_filter',
      userAuthority.as('authority'),
      sql<UserRow['usergroups']>`coalesce((${eb
        .selectFrom('user_usergroups as ug')
        .innerJoin('usergroups as g', 'g.usergroup_id', 'ug.usergroup_id')
        .select(sql`json_agg(json_build_object('usergroup_id', g.usergroup_id, 'usergroup_name', g.usergroup_name, 'usergroup_authority', g.usergroup_authority) order by g.usergroup_id)`.as('groups'))
        .whereRef('ug.user_id', '=', 'users.user_id')}), '[]'::json)`.as('usergroups'),
    ]);
}

/**
 * GET /v1/users/edit: all_count and one page (by user_id) of the users the viewer may see,
 * filtered. The count comes first so that the page can be read from the nearer end of the
 * user_id order (pageWindow): the last of 5,000 pages then costs what the first does. The page's
 * ids are chosen before their columns, so the subqueries run for 20 rows, not for every row an
 * offset skips.
 */
export async function listUsers(db: Db, viewer: Viewer, query: UserListQuery): Promise<{ all_count: number; users: UserRow[] }> {
  const matching = usersQuery(db, viewer, query);
  const { n } = await matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const allCount = Number(n);
  const window = pageWindow(allCount, query.page_no, query.page_count);
  if (window.limit === 0) return { all_count: allCount, users: [] };
  const pageIds = matching.select('users.user_id').orderBy('users.user_id', window.direction).limit(window.limit).offset(window.offset);
  // The ids already passed the viewer's scope: the outer query only fetches their rows.
  const users = await withColumns(db.selectFrom('users').where('users.user_id', 'in', pageIds)).orderBy('users.user_id').execute();
  return { all_count: allCount, users };
}

/** One user the viewer may see, or null. */
export async function getUserRow(db: Db, viewer: Viewer, userId: number): Promise<UserRow | null> {
  return (await withColumns(usersQuery(db, viewer, { user_id: userId })).executeTakeFirst()) ?? null;
}

/** A user as the save decides on it: exists (live), visible to the viewer, its authority and state. Null when it does not exist or is deleted. */
export async function lockUserForChange(trx: Db, viewer: Viewer, userId: number) {
  const row = await trx
    .selectFrom('users')
    .select((eb) => ['users.user_id', 'users.login_id', 'users.user_name', 'users.valid_flg', userAuthority.as('authority'), sql<boolean>`${userVisibleTo(viewer)(eb)}`.as('visible')])
    .where('users.user_id', '=', userId)
    .where('users.deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  return row ?? null;
}

export interface GroupScope {
  usergroup_id: number;
  usergroup_authority: number;
  visible: boolean;
  assignable: boolean;
}

/** The named user groups as the viewer sees them (ids that do not exist are left out). */
export async function scopeGroups(db: Db, viewer: Viewer, ids: readonly number[]): Promise<GroupScope[]> {
  if (ids.length === 0) return [];
  const staff = isAdministrator(viewer.authority);
  return db
    .selectFrom('usergroups as g')
    .select((eb) => [
      'g.usergroup_id',
      'g.usergroup_authority',
      (staff ? sql<boolean>`true` : sql<boolean>`${eb('g.usergroup_id', 'in', visibleGroupIds(eb, viewer))}`).as('visible'),
      (staff ? sql<boolean>`true` : sql<boolean>`${eb('g.usergroup_id', 'in', assignableGroupIds(eb, viewer))}`).as('assignable'),
    ])
    .where('g.usergroup_id', 'in', ids)
    .execute();
}

/** The groups the viewer may put users into (the form's selects), by id. */
export function listAssignableGroups(db: Db, viewer: Viewer) {
  return assignableGroups(db, viewer).execute();
}

function assignableGroups(db: Db, viewer: Viewer) {
  let query = db.selectFrom('usergroups as g').select(['g.usergroup_id', 'g.usergroup_name', 'g.usergroup_authority']).orderBy('g.usergroup_id');
  if (!isAdministrator(viewer.authority)) {
    query = query.where((eb) => eb('g.usergroup_id', 'in', assignableGroupIds(eb, viewer))).where('g.usergroup_authority', '>=', viewer.authority);
  }
  return query;
}

/** How many groups a name search offers at most (the filter without JavaScript). */
export const GROUP_SEARCH_LIMIT = 50;

/**
 * The few assignable groups a user group filter renders on the server: the chosen one and those
 * whose name contains `search` (at most GROUP_SEARCH_LIMIT). The whole list (5,000 groups) is
 * loaded only when the select is opened.
 */
export async function findAssignableGroups(db: Db, viewer: Viewer, { selectedId, search }: { selectedId?: number; search?: string }) {
  const [selected, found] = await Promise.all([
    selectedId === undefined ? [] : assignableGroups(db, viewer).where('g.usergroup_id', '=', selectedId).execute(),
    search ? assignableGroups(db, viewer).where('g.usergroup_name', 'ilike', likePart(search)).limit(GROUP_SEARCH_LIMIT).execute() : [],
  ]);
  return [...selected, ...found.filter((group) => group.usergroup_id !== selectedId)];
}

/** The user groups linked to a store (the store-user form's pre-selection for a new user). */
export async function storeGroupIds(db: Db, storeId: string): Promise<number[]> {
  const rows = await db.selectFrom('store_usergroups').select('usergroup_id').where('store_id', '=', storeId).orderBy('usergroup_id').execute();
  return rows.map((row) => row.usergroup_id);
}

/** Whether the company exists, and whether the viewer may use it. */
export async function scopeCompany(db: Db, viewer: Viewer, companyId: string): Promise<{ exists: boolean; visible: boolean }> {
  const row = await db
    .selectFrom('companies')
    .select((eb) => sql<boolean>`${companyVisibleTo(viewer, eb.ref('companies.company_id'))(eb)}`.as('visible'))
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return { exists: row !== undefined, visible: Boolean(row?.visible) };
}

/** The unique fields (login_id, mailaddress1) another user already holds; tombstones hold none. */
export async function findUserDuplicates(db: Db, input: { loginId: string; mailaddress1: string | null; userId?: number }): Promise<UniqueUserField[]> {
  const rows = await db
    .selectFrom('users')
    .select(['login_id', 'mailaddress1'])
    .where((eb) =>
      eb.or([eb('login_id', '=', input.loginId), ...(input.mailaddress1 ? [eb(sql`lower(mailaddress1)`, '=', input.mailaddress1.toLowerCase())] : [])]),
    )
    .$if(input.userId !== undefined, (q) => q.where('user_id', '<>', input.userId!))
    .execute();
  const fields: UniqueUserField[] = [];
  if (rows.some((row) => row.login_id === input.loginId)) fields.push('login_id');
  if (input.mailaddress1 && rows.some((row) => row.mailaddress1?.toLowerCase() === input.mailaddress1!.toLowerCase())) fields.push('mailaddress1');
  return fields;
}

/** The unique field a unique violation names (a save that raced past the duplicate check). */
export function duplicateUserFieldOf(error: unknown): UniqueUserField | null {
  const constraint = (error as { constraint?: string } | null)?.constraint ?? '';
  if (constraint === 'users_login_id_key') return 'login_id';
  if (constraint === 'users_mailaddress1') return 'mailaddress1';
  return null;
}

const userColumns = (input: UserSaveInput) => ({
  user_name: input.user_name,
  company_id: input.company_id,
  tel_no: input.tel_no,
  mailaddress1: input.mailaddress1,
  mailaddress2: input.mailaddress2,
  mailaddress3: input.mailaddress3,
  language: input.language,
  valid_flg: input.valid_flg,
  notice_flg: input.notice_flg,
  alert_filter: input.alert_filter,
});

export async function insertUser(trx: Db, input: UserSaveInput, temporary: { hash: string; expiresAt: Date }, now: Date): Promise<number> {
  const row = await trx
    .insertInto('users')
    .values({ login_id: input.login_id, ...userColumns(input), temporary_password_hash: temporary.hash, temporary_password_expires_at: temporary.expiresAt, created_at: now, updated_at: now })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  await replaceUserGroups(trx, row.user_id, input.usergroup);
  return row.user_id;
}

/** Updates the user's fields and groups (the login id never changes). */
export async function updateUser(trx: Db, userId: number, input: UserSaveInput, now: Date): Promise<void> {
  await trx.updateTable('users').set({ ...userColumns(input), updated_at: now }).where('user_id', '=', userId).execute();
  await replaceUserGroups(trx, userId, input.usergroup);
}

async function replaceUserGroups(trx: Db, userId: number, ids: number[]): Promise<void> {
  await trx.deleteFrom('user_usergroups').where('user_id', '=', userId).where('usergroup_id', 'not in', ids).execute();
  await trx.insertInto('user_usergroups').values(ids.map((usergroup_id) => ({ user_id: userId, usergroup_id }))).onConflict((oc) => oc.doNothing()).execute();
}

/**
 * Deletes a user as a tombstone: the row stays with its name (alert stops, comments, reports and
 * audit rows keep showing who), everything else goes: groups, passwords, mail addresses, and the
 * login id is freed (it becomes `#deleted<user_id>`, which no sign-in can type).
 */
export async function tombstoneUser(trx: Db, userId: number, now: Date): Promise<void> {
  await trx.deleteFrom('user_usergroups').where('user_id', '=', userId).execute();
  await trx
    .updateTable('users')
    .set({
      login_id: `#deleted${userId}`,
      tel_no: null,
      mailaddress1: null,
      mailaddress2: null,
      mailaddress3: null,
      valid_flg: 0,
      notice_flg: 0,
      alert_filter: 2,
      password_hash: null,
      temporary_password_hash: null,
      temporary_password_expires_at: null,
      deleted_at: now,
      updated_at: now,
    })
    .where('user_id', '=', userId)
    .execute();
}

/** Active administrators other than `userId` (the last administrator may not be deleted, deactivated or demoted). */
export async function countOtherActiveAdministrators(trx: Db, userId: number): Promise<number> {
  const row = await trx
    .selectFrom('users')
    .innerJoin('user_usergroups as ug', 'ug.user_id', 'users.user_id')
    .innerJoin('usergroups as g', 'g.usergroup_id', 'ug.usergroup_id')
    .select((eb) => eb.fn.count<number>('users.user_id').distinct().as('n'))
    .where('users.user_id', '<>', userId)
    .where('users.valid_flg', '=', 1)
    .where('users.deleted_at', 'is', null)
    .where('g.usergroup_authority', '<=', 5)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The authorities (authority, authority_name), most privileged first. */
export function listAuthorities(db: Db) {
  return db.selectFrom('authorities').select(['authority', 'authority_name']).orderBy('authority').execute();
}
