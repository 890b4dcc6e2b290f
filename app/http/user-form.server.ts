import { json } from '@remix-run/node';
import type { Db } from '~/db/db.server';
import { NEW_USER_DEFAULTS, USER_DUPLICATE_MESSAGES, USER_MESSAGES, UserSaveSchema, type UserFormValues, userFormValues } from '~/domain/user-master';
import { isNonStoreUser } from '~/domain/roles';
import { listCompanies } from '~/models/lookups.server';
import { getUserRow, listAssignableGroups, storeGroupIds } from '~/models/user-master.server';
import type { Viewer } from '~/models/users.server';
import { saveUser, type UserWriteFailure } from '~/services/user-master.server';
import { fieldErrors } from './api.server';

// The user master and store-user forms' action (001 §2): the posted form read into the one input
// schema of POST /v1/users/edit, the same service, and the failures as the form shows them: the
// §5 messages at their fields with 入力に誤りがあります, the §8 duplicates at login id and mail with
// 保存失敗しました。, and the service's refusals as the banner.

export type UserFormResult = { ok: false; values: UserFormValues; fields: Record<string, string>; banner: string };

/** The form as posted: the checkboxes' absence is 0; repeated group selects; an empty select is left out. */
export function userFormValuesOf(form: FormData): UserFormValues {
  const text = (name: string) => String(form.get(name) ?? '');
  return {
    user_id: text('user_id'),
    login_id: text('login_id'),
    user_name: text('user_name'),
    company_id: text('company_id'),
    tel_no: text('tel_no'),
    mailaddress1: text('mailaddress1'),
    mailaddress2: text('mailaddress2'),
    mailaddress3: text('mailaddress3'),
    language: text('language') === 'US' ? 'US' : 'JP',
    valid_flg: form.get('valid_flg') ? 1 : 0,
    notice_flg: form.get('notice_flg') ? 1 : 0,
    alert_filter: Number(form.get('alert_filter') ?? 2),
    usergroup: form.getAll('usergroup').map(String),
  };
}

/** The schema's input from the form's values (the same shape the API takes). */
export function userInputOf(values: UserFormValues, storeId?: string) {
  return { ...values, user_id: values.user_id || undefined, usergroup: values.usergroup.filter(Boolean), language: values.language, store_id: storeId };
}

const refusalText = (failure: UserWriteFailure) => {
  switch (failure.reason) {
    case 'last_administrator':
      return failure.message;
    case 'forbidden':
      return 'この操作は許可されていません。';
    case 'not_found':
      return '対象が見つかりません。';
    default:
      return USER_MESSAGES.saveFailed;
  }
};

/** Saves the posted form; null when saved, else the answer to render the form again with. */
export async function saveUserForm(db: Db, viewer: Viewer, form: FormData, storeId?: string): Promise<Response | null> {
  const values = userFormValuesOf(form);
  const fail = (fields: Record<string, string>, banner: string, status = 400) => json<UserFormResult>({ ok: false, values, fields, banner }, { status });
  const parsed = UserSaveSchema.safeParse(userInputOf(values, storeId));
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    // The group error shows at the first select (001 §5).
    const group = Object.keys(fields).find((key) => key.startsWith('usergroup'));
    if (group) fields.usergroup = fields[group];
    return fail(fields, USER_MESSAGES.banner);
  }
  const result = await saveUser(db, viewer, parsed.data, new Date());
  if (result.ok) return null;
  if (result.reason === 'duplicate') return fail(Object.fromEntries(result.fields.map((field) => [field, USER_DUPLICATE_MESSAGES[field]])), USER_MESSAGES.saveFailed);
  if (result.reason === 'invalid') return fail(result.fields, USER_MESSAGES.saveFailed);
  return fail({}, refusalText(result), result.reason === 'not_found' ? 404 : result.reason === 'forbidden' ? 403 : 409);
}

/**
 * What the form needs: the groups one may assign (plus the user's own, which may stay), the
 * companies one may use, and the values: the user's, or a new user's defaults (001 §4) with the
 * store's groups pre-selected on the store-user form. Null when the user is not one the viewer sees.
 */
export async function userFormData(db: Db, viewer: Viewer, options: { userId?: number; storeId?: string }) {
  const [assignable, companies] = await Promise.all([listAssignableGroups(db, viewer), listCompanies(db, viewer)]);
  let initial: UserFormValues;
  let groups = assignable.map((group) => ({ usergroup_id: group.usergroup_id, usergroup_name: group.usergroup_name }));
  if (options.userId !== undefined) {
    const user = await getUserRow(db, viewer, options.userId);
    if (!user) return null;
    initial = userFormValues(user);
    const known = new Set(groups.map((group) => group.usergroup_id));
    groups = [...groups, ...user.usergroups.filter((group) => !known.has(group.usergroup_id)).map(({ usergroup_id, usergroup_name }) => ({ usergroup_id, usergroup_name }))];
  } else {
    // A store's new user gets the store's store-user groups only: a manager's or a staff group the
    // store is linked to (staff ones from before decision 245) would make the "store user" a
    // manager or an administrator (issue 33 item 7).
    const storeGroups = new Set(options.storeId ? await storeGroupIds(db, options.storeId) : []);
    const preselected = assignable.filter((group) => storeGroups.has(group.usergroup_id) && !isNonStoreUser(group.usergroup_authority)).map((group) => group.usergroup_id);
    initial = { ...NEW_USER_DEFAULTS, user_id: '', login_id: '', user_name: '', company_id: '', tel_no: '', usergroup: preselected.length > 0 ? preselected.map(String) : [''] };
  }
  return { initial, groups, companies };
}

/** The ＋ button without JavaScript: the form comes back with one more group select, nothing saved. */
export function addGroupSlot(form: FormData): Response {
  const values = userFormValuesOf(form);
  return json<UserFormResult>({ ok: false, values: { ...values, usergroup: [...values.usergroup, ''] }, fields: {}, banner: '' });
}
