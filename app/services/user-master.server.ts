import type { Db } from '~/db/db.server';
import { getEnv } from '~/env.server';
import { formatDateTime } from '~/domain/japan-time';
import { AUTHORITY, isAdministrator } from '~/domain/roles';
import { textsFor } from '~/domain/texts';
import { appUrl, absoluteUrl } from '~/domain/urls';
import {
  type UniqueUserField,
  type UserRow,
  type UserSaveInput,
  isAdministratorAuthority,
  mayAssignAuthority,
  mayManageUserOf,
} from '~/domain/user-master';
import { revokeUserTokens } from '~/models/access-tokens.server';
import { audit } from '~/models/audit.server';
import { enqueueMails } from '~/models/outbox.server';
import { canViewStore } from '~/models/stores.server';
import {
  countOtherActiveAdministrators,
  duplicateUserFieldOf,
  findUserDuplicates,
  getUserRow,
  insertUser,
  lockUserForChange,
  scopeCompany,
  scopeGroups,
  tombstoneUser,
  updateUser,
} from '~/models/user-master.server';
import type { Viewer } from '~/models/users.server';
import { newTemporaryPassword } from './passwords.server';

// The user master's writes (POST and DELETE /v1/users/edit, the user master and store-user
// forms), each in one transaction with its audit row. The rules of DESIGN.md "Administration: who
// may do what" are decided here: docs/decisions/120-user-master-privileges.md.

export type UserWriteFailure =
  | { ok: false; reason: 'not_found'; description: string }
  | { ok: false; reason: 'forbidden'; description: string }
  | { ok: false; reason: 'last_administrator'; description: string; message: string }
  | { ok: false; reason: 'duplicate'; fields: UniqueUserField[] }
  | { ok: false; reason: 'invalid'; fields: Record<string, string> };

/** A new user's temporary password is valid this long (the welcome mail may sit unread over a weekend). */
export const WELCOME_PASSWORD_HOURS = 72;

const notFound = (description: string) => ({ ok: false, reason: 'not_found', description }) as const;
const forbidden = (description: string) => ({ ok: false, reason: 'forbidden', description }) as const;
const lastAdministrator = {
  ok: false,
  reason: 'last_administrator',
  description: 'This is the last active administrator: another administrator must exist first.',
  message: '最後の管理者は削除・無効化・権限変更できません',
} as const;

async function catchDuplicates<T>(work: () => Promise<T>): Promise<T | UserWriteFailure> {
  try {
    return await work();
  } catch (error) {
    const field = duplicateUserFieldOf(error);
    if (field) return { ok: false, reason: 'duplicate', fields: [field] };
    throw error;
  }
}

const snapshot = (row: UserRow | null) =>
  row && {
    login_id: row.login_id,
    user_name: row.user_name,
    company_id: row.company_id,
    tel_no: row.tel_no,
    mailaddress1: row.mailaddress1,
    mailaddress2: row.mailaddress2,
    mailaddress3: row.mailaddress3,
    language: row.language,
    valid_flg: row.valid_flg,
    notice_flg: row.notice_flg,
    alert_filter: row.alert_filter,
    usergroup: row.usergroups.map((group) => group.usergroup_id),
  };

export type UserSaveResult = { ok: true; created: boolean; user: UserRow } | UserWriteFailure;

/**
 * POST /v1/users/edit: creates (no user_id) or updates a user. Refusals, in order: a store,
 * user, company or group the saver may not see is 404; a user more privileged than the saver,
 * a group they may not assign (another's, administrator, maintenance or more privileged than
 * their own), a change of their own authority, or deactivating themselves is 403; the last
 * active administrator keeps being one (409); unknown ids and a changed login id are 400; a
 * login id or first mail held by another user is 400 duplicate. A new user gets a welcome mail
 * (outbox, their language) with a temporary password; deactivating ends the user's sessions.
 */
export async function saveUser(db: Db, viewer: Viewer, input: UserSaveInput, now: Date): Promise<UserSaveResult> {
  const saved = await catchDuplicates(() =>
    db.transaction().execute(async (trx): Promise<{ ok: true; created: boolean; userId: number } | UserWriteFailure> => {
      if (input.store_id !== undefined && !(await canViewStore(trx, viewer, input.store_id))) return notFound(`Store ${input.store_id} was not found.`);
      const existing = input.user_id === undefined ? null : await lockUserForChange(trx, viewer, input.user_id);
      if (input.user_id !== undefined && !existing?.visible) return notFound(`User ${input.user_id} was not found.`);
      if (existing && !mayManageUserOf(viewer.authority, existing.authority)) return forbidden('You may not edit a user more privileged than yourself.');
      const self = existing?.user_id === viewer.userId;

      const company = await scopeCompany(trx, viewer, input.company_id);
      if (company.exists && !company.visible) return notFound(`Company ${input.company_id} was not found.`);
      const groups = await scopeGroups(trx, viewer, input.usergroup);
      const currentGroups = existing ? new Set((await getUserRow(trx, viewer, existing.user_id))?.usergroups.map((group) => group.usergroup_id)) : new Set<number>();
      const hidden = groups.filter((group) => !group.visible && !currentGroups.has(group.usergroup_id));
      if (hidden.length > 0) return notFound(`No such usergroup ${hidden.map((group) => group.usergroup_id).join(', ')}.`);
      const refused = groups.filter((group) => !currentGroups.has(group.usergroup_id) && !(group.assignable && mayAssignAuthority(viewer.authority, group.usergroup_authority)));
      if (refused.length > 0) {
        return forbidden(`You may not assign usergroup ${refused.map((group) => group.usergroup_id).join(', ')}: only your own groups or store-user groups of your stores, never administrator, maintenance or a more privileged group.`);
      }
      const before = existing && (await getUserRow(trx, { ...viewer, authority: AUTHORITY.administrator }, existing.user_id));
      const mailChanged = before !== null && MAIL_FIELDS.some((field) => (before[field] ?? null) !== (input[field] ?? null));
      if (before && mailChanged && !self && !(await mayChangeMailOf(trx, viewer, existing.authority, before))) {
        return forbidden('You may not change the mail address of a user of your own rank or with groups outside your scope; ask an administrator.');
      }
      const authority = Math.min(AUTHORITY.storeUser, ...groups.map((group) => group.usergroup_authority));
      if (self && !isAdministrator(viewer.authority) && authority !== viewer.authority) return forbidden('You may not change your own authority.');
      if (self && input.valid_flg === 0) return forbidden('You may not deactivate yourself.');
      if (existing && isAdministratorAuthority(existing.authority) && existing.valid_flg === 1 && (input.valid_flg === 0 || !isAdministratorAuthority(authority))) {
        if ((await countOtherActiveAdministrators(trx, existing.user_id)) === 0) return lastAdministrator;
      }

      const fields: Record<string, string> = {};
      if (!company.exists) fields.company_id = '存在しない会社です';
      if (groups.length < input.usergroup.length) fields.usergroup = '存在しないユーザーグループです';
      if (existing && existing.login_id !== input.login_id) fields.login_id = 'ログインIDは変更できません';
      if (Object.keys(fields).length > 0) return { ok: false, reason: 'invalid', fields };
      const duplicates = await findUserDuplicates(trx, { loginId: input.login_id, mailaddress1: input.mailaddress1, userId: existing?.user_id });
      if (duplicates.length > 0) return { ok: false, reason: 'duplicate', fields: duplicates };

      if (!existing) {
        const temporary = await newTemporaryPassword(now, WELCOME_PASSWORD_HOURS);
        const userId = await insertUser(trx, input, temporary, now);
        const after = await getUserRow(trx, { ...viewer, authority: AUTHORITY.administrator }, userId);
        await audit(trx, { userId: viewer.userId, action: 'user.create', targetType: 'user', targetId: userId, storeId: input.store_id ?? null, details: { before: null, after: snapshot(after) }, at: now });
        const to = input.mailaddress1 ?? input.mailaddress2 ?? input.mailaddress3;
        if (to) {
          const mail = textsFor(input.language).welcomeMail({
            userName: input.user_name,
            loginId: input.login_id,
            password: temporary.password,
            validUntil: formatDateTime(temporary.expiresAt),
            loginUrl: absoluteUrl(getEnv().ONRECO_PUBLIC_URL, appUrl.login),
          });
          await enqueueMails(trx, [{ toAddress: to, subject: mail.subject, body: mail.text, storeId: null, alertHistoryId: null }]);
        }
        return { ok: true, created: true, userId };
      }
      const staffView = { ...viewer, authority: AUTHORITY.administrator };
      await updateUser(trx, existing.user_id, input, now);
      const after = await getUserRow(trx, staffView, existing.user_id);
      if (input.valid_flg === 0 && existing.valid_flg === 1) await revokeUserTokens(trx, existing.user_id, now);
      await audit(trx, { userId: viewer.userId, action: 'user.update', targetType: 'user', targetId: existing.user_id, storeId: input.store_id ?? null, details: { before: snapshot(before), after: snapshot(after) }, at: now });
      if (before && mailChanged && !self) await tellPreviousAddresses(trx, viewer, before, input, now);
      return { ok: true, created: false, userId: existing.user_id };
    }),
  );
  if (!saved.ok) return saved;
  const user = await getUserRow(db, { ...viewer, authority: AUTHORITY.administrator }, saved.userId);
  return { ok: true, created: saved.created, user: user! };
}

const MAIL_FIELDS = ['mailaddress1', 'mailaddress2', 'mailaddress3'] as const;

/**
 * Whether someone other than the user may change the user's mail addresses (decision 241): an
 * administrator always (audited, the old address is told); a manager only for users below their
 * own rank whose every group the manager sees, so a mail change (and the temporary password that
 * follows it) can never carry a peer's or an outside group's access to the manager.
 */
async function mayChangeMailOf(trx: Db, viewer: Viewer, authority: number, user: UserRow): Promise<boolean> {
  if (isAdministrator(viewer.authority)) return true;
  if (authority <= viewer.authority) return false;
  const groups = await scopeGroups(trx, viewer, user.usergroups.map((group) => group.usergroup_id));
  return groups.every((group) => group.visible);
}

/** Tells each previous address that is gone that someone else changed the account's mail. */
async function tellPreviousAddresses(trx: Db, viewer: Viewer, before: UserRow, input: UserSaveInput, now: Date): Promise<void> {
  const kept = new Set(MAIL_FIELDS.map((field) => input[field]).filter(Boolean));
  const gone = [...new Set(MAIL_FIELDS.map((field) => before[field]).filter((address): address is string => !!address && !kept.has(address)))];
  const mail = textsFor(before.language).mailChangedMail({
    userName: before.user_name,
    loginId: before.login_id,
    newAddress: input.mailaddress1 ?? input.mailaddress2 ?? input.mailaddress3 ?? '-',
    changedBy: viewer.userName,
    changedAt: formatDateTime(now),
  });
  await enqueueMails(trx, gone.map((toAddress) => ({ toAddress, subject: mail.subject, body: mail.text, storeId: null, alertHistoryId: null })));
}

/**
 * DELETE /v1/users/edit: the user becomes a tombstone (their name stays on the history they
 * wrote), their sessions end at once. Refused: a user one may not see (404), more privileged
 * than oneself or oneself (403), the last active administrator (409).
 */
export async function deleteUser(db: Db, viewer: Viewer, userId: number, now: Date): Promise<{ ok: true } | UserWriteFailure> {
  return db.transaction().execute(async (trx) => {
    const existing = await lockUserForChange(trx, viewer, userId);
    if (!existing?.visible) return notFound(`User ${userId} was not found.`);
    if (!mayManageUserOf(viewer.authority, existing.authority)) return forbidden('You may not delete a user more privileged than yourself.');
    if (existing.user_id === viewer.userId) return forbidden('You may not delete yourself.');
    if (isAdministratorAuthority(existing.authority) && existing.valid_flg === 1 && (await countOtherActiveAdministrators(trx, userId)) === 0) return lastAdministrator;
    const before = await getUserRow(trx, { ...viewer, authority: AUTHORITY.administrator }, userId);
    await tombstoneUser(trx, userId, now);
    await revokeUserTokens(trx, userId, now);
    await audit(trx, { userId: viewer.userId, action: 'user.delete', targetType: 'user', targetId: userId, details: { before: snapshot(before), after: null }, at: now });
    return { ok: true } as const;
  });
}

