import { json } from '@remix-run/node';
import type { Db } from '~/db/db.server';
import { type StoreFormValues, storeFormProblems, storeInputOf } from '~/domain/store-form';
import { DUPLICATE_FIELD_MESSAGES, STORE_MESSAGES, StoreSaveSchema } from '~/domain/store-schemas';
import { listCompanies, listPrefectures, listStoregroups } from '~/models/lookups.server';
import { seesAllStores } from '~/domain/roles';
import { usergroupCompanies, usergroupCompanyLinks } from '~/models/store-management.server';
import { listAssignableGroups } from '~/models/user-master.server';
import type { Viewer } from '~/models/users.server';
import { saveStore } from '~/services/store-gateway.server';
import { fieldErrors } from './api.server';

// The store create and edit forms' action and lookups (001 §2, §5, §8): the posted form into
// StoreSaveSchema and the shared store save (POST /v1/stores' service); refusals as the form shows
// them: the §5 messages with 入力に誤りがあります, the §8 duplicates with 保存失敗しました。

export type StoreFormResult = { ok: false; values: StoreFormValues; fields: Record<string, string>; banner: string };

export function storeFormValuesFromForm(form: FormData): StoreFormValues {
  const text = (name: string) => String(form.get(name) ?? '');
  return {
    store_id: text('store_id'),
    store_no: text('store_no'),
    store_name: text('store_name'),
    company_id: text('company_id'),
    storegroup_id: text('storegroup_id'),
    prefecture_id: text('prefecture_id'),
    address: text('address'),
    tel_no: text('tel_no'),
    opening_date: text('opening_date'),
    closing_date: text('closing_date'),
    usergroup: form.getAll('usergroup').map(String),
    gateway_info: text('gateway_info'),
  };
}

/**
 * The selects' options: companies and store groups the viewer may use, prefectures, the user
 * groups they may assign with the companies each is of (the form offers those of the chosen
 * company; `storeId` on edit: the store's own links do not count, its company may change).
 */
export async function storeFormLookups(db: Db, viewer: Viewer, storeId: string | null = null) {
  const [companies, storegroups, prefectures, groups, links] = await Promise.all([
    listCompanies(db, viewer),
    listStoregroups(db, viewer),
    listPrefectures(db),
    listAssignableGroups(db, viewer),
    usergroupCompanyLinks(db, 'all'),
  ]);
  const companiesOf = usergroupCompanies(links, storeId);
  // Staff groups are refused as a store's groups (checkStoreReferencesOf): not offered either.
  const storeGroups = groups.filter((group) => !seesAllStores(group.usergroup_authority));
  return {
    companies,
    storegroups,
    prefectures,
    groups: storeGroups.map(({ usergroup_id, usergroup_name }) => ({ usergroup_id, usergroup_name, company_ids: companiesOf.get(usergroup_id) ?? [] })),
  };
}

/** Saves the posted store form; `{ storeId }` when saved, else the answer to render the form again with. */
export async function saveStoreForm(db: Db, viewer: Viewer, form: FormData, mode: 'create' | 'edit'): Promise<Response | { storeId: string }> {
  const values = storeFormValuesFromForm(form);
  if (form.get('intent') === 'add_group') return json<StoreFormResult>({ ok: false, values: { ...values, usergroup: [...values.usergroup, ''] }, fields: {}, banner: '' });
  const fail = (fields: Record<string, string>, banner: string, status = 400) => json<StoreFormResult>({ ok: false, values, fields, banner }, { status });
  const parsed = StoreSaveSchema.safeParse(storeInputOf(values, mode));
  const problems = storeFormProblems(values);
  if (!parsed.success || Object.keys(problems).length > 0) {
    const fields = { ...problems, ...(parsed.success ? {} : fieldErrors(parsed.error)) };
    const group = Object.keys(fields).find((key) => key.startsWith('usergroup'));
    if (group) fields.usergroup = fields[group];
    return fail(fields, STORE_MESSAGES.banner);
  }
  const result = await saveStore(db, viewer, parsed.data, new Date(), { createOnly: mode === 'create' });
  if (result.ok) return { storeId: parsed.data.store_id };
  switch (result.reason) {
    case 'duplicate':
      return fail(Object.fromEntries(result.fields.map((field) => [field, DUPLICATE_FIELD_MESSAGES[field]])), STORE_MESSAGES.saveFailed);
    case 'invalid':
      return fail(result.fields, STORE_MESSAGES.saveFailed);
    case 'forbidden':
      return result.fields ? fail(result.fields, STORE_MESSAGES.saveFailed, 403) : fail({}, `${STORE_MESSAGES.saveFailed} この操作は許可されていません。`, 403);
    case 'not_found':
      return fail({}, `${STORE_MESSAGES.saveFailed} 対象が見つかりません。`, 404);
    default:
      return fail({}, `${STORE_MESSAGES.saveFailed} ${result.message}`, 409);
  }
}
