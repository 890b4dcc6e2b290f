import { sql } from 'kysely';
import { ALERT_FILTERS, mailsOccurrence } from '~/domain/alert-filter';
import type { Db } from '~/db/db.server';
import { type QuietHours, quietHoursOf } from '~/domain/quiet-hours';
import { seesStore } from './stores.server';

export interface Viewer {
  userId: number;
  loginId: string;
  userName: string;
  authority: number;
  language: 'JP' | 'US';
  mailaddress1: string | null;
}

export interface UserCredentials extends Viewer {
  passwordHash: string | null;
  temporaryPasswordHash: string | null;
  temporaryPasswordExpiresAt: Date | null;
  validFlg: number;
}

/** A user's authority is the most privileged (lowest) among their groups; 101 when they have none. */
export const userAuthority = sql<number>`coalesce((
  select min(g.usergroup_authority) from user_usergroups ug
  join usergroups g on g.usergroup_id = ug.usergroup_id
  where ug.user_id = users.user_id), 101)`;

function selectViewer(db: Db) {
  return db
    .selectFrom('users')
    .select([
      'users.user_id as userId',
      'users.login_id as loginId',
      'users.user_name as userName',
      'users.language',
      'users.mailaddress1',
      'users.password_hash as passwordHash',
      'users.temporary_password_hash as temporaryPasswordHash',
      'users.temporary_password_expires_at as temporaryPasswordExpiresAt',
      'users.valid_flg as validFlg',
      userAuthority.as('authority'),
    ]);
}

export async function getUserCredentials(db: Db, loginId: string): Promise<UserCredentials | null> {
  return (await selectViewer(db).where('users.login_id', '=', loginId).executeTakeFirst()) ?? null;
}

export async function getViewerById(db: Db, userId: number): Promise<UserCredentials | null> {
  return (await selectViewer(db).where('users.user_id', '=', userId).executeTakeFirst()) ?? null;
}

/** The user of a login id or mail address, for the forgotten-password form. */
export async function findUserByLoginOrMail(db: Db, value: string): Promise<UserCredentials | null> {
  const row = await selectViewer(db)
    .where((eb) => eb.or([eb('users.login_id', '=', value), eb(sql`lower(users.mailaddress1)`, '=', value.toLowerCase())]))
    .where('users.valid_flg', '=', 1)
    .executeTakeFirst();
  return row ?? null;
}

/** Sets the user's password; any temporary password ends with it. */
export async function setPasswordHash(db: Db, userId: number, passwordHash: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now, temporary_password_hash: null, temporary_password_expires_at: null, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

export async function setTemporaryPasswordHash(db: Db, userId: number, passwordHash: string, expiresAt: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ temporary_password_hash: passwordHash, temporary_password_expires_at: expiresAt })
    .where('user_id', '=', userId)
    .execute();
}

/** GET /v1/users: user_id, login_id, user_name, mailaddress1. */
export async function getUserSummary(db: Db, userId: number) {
  return (
    (await db
      .selectFrom('users')
      .select(['user_id', 'login_id', 'user_name', 'mailaddress1'])
      .where('user_id', '=', userId)
      .executeTakeFirst()) ?? null
  );
}

export interface AlertRecipient {
  userId: number;
  language: 'JP' | 'US';
  alertFilter: number; // 0 occurrence and recovery, 1 occurrence only
  addresses: string[];
}

/**
 * Who is mailed about a store's alerts: valid users with notifications on and an alert filter
 * other than 2 (none), who can see the store (administrators and maintenance see every store).
 */
export async function listAlertRecipients(db: Db, storeId: string): Promise<AlertRecipient[]> {
  const rows = await db
    .selectFrom('users')
    .select(['user_id', 'language', 'alert_filter', 'mailaddress1', 'mailaddress2', 'mailaddress3'])
    .where('valid_flg', '=', 1)
    .where('notice_flg', '=', 1)
    .where('alert_filter', 'in', ALERT_FILTERS.filter(mailsOccurrence))
    .where(seesStore(storeId))
    .execute();
  return rows.map(toAlertRecipient);
}

/** A users row as a recipient of alert messages: up to three addresses, in the user's language. */
export function toAlertRecipient(row: { user_id: number; language: 'JP' | 'US'; alert_filter: number; mailaddress1: string | null; mailaddress2: string | null; mailaddress3: string | null }): AlertRecipient {
  return {
    userId: row.user_id,
    language: row.language,
    alertFilter: row.alert_filter,
    addresses: [row.mailaddress1, row.mailaddress2, row.mailaddress3].filter((address): address is string => !!address),
  };
}

/** Which of these addresses belong to a live user (any of their three), compared case-insensitively; answered lower-cased. */
export async function knownMailAddresses(db: Db, addresses: readonly string[]): Promise<Set<string>> {
  const wanted = [...new Set(addresses.map((address) => address.toLowerCase()))];
  if (wanted.length === 0) return new Set();
  const { rows } = await sql<{ address: string }>`
    select distinct lower(m.address) as address
    from users u cross join lateral unnest(array[u.mailaddress1, u.mailaddress2, u.mailaddress3]) as m(address)
    where u.deleted_at is null and lower(m.address) = any(${wanted}::text[])`.execute(db);
  return new Set(rows.map((row) => row.address));
}

/** A user's quiet hours (decision 315), null when none. */
export async function getQuietHours(db: Db, userId: number): Promise<QuietHours | null> {
  const row = await db.selectFrom('users').select(['quiet_start_minute', 'quiet_end_minute']).where('user_id', '=', userId).executeTakeFirst();
  return row ? quietHoursOf(row.quiet_start_minute, row.quiet_end_minute) : null;
}

export async function setQuietHours(db: Db, userId: number, quiet: QuietHours | null): Promise<void> {
  await db
    .updateTable('users')
    .set({ quiet_start_minute: quiet?.startMinute ?? null, quiet_end_minute: quiet?.endMinute ?? null })
    .where('user_id', '=', userId)
    .execute();
}
