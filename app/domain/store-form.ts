import type { StoreInfo } from './store-schemas';

// The store create and edit form's values (001 §2, §5) and their way into StoreSaveSchema, the one
// input of POST /v1/stores: dates from the date inputs (YYYY-MM-DD) become YYYYMMDD, empty group
// selects are left out, and on edit an empty gateway_info is sent as null.

export interface StoreFormValues {
  store_id: string;
  store_no: string;
  store_name: string;
  company_id: string;
  storegroup_id: string;
  prefecture_id: string;
  address: string;
  tel_no: string;
  opening_date: string;
  closing_date: string;
  usergroup: string[];
  gateway_info: string;
}

export const EMPTY_STORE_FORM: StoreFormValues = {
  store_id: '',
  store_no: '',
  store_name: '',
  company_id: '',
  storegroup_id: '',
  prefecture_id: '',
  address: '',
  tel_no: '',
  opening_date: '',
  closing_date: '',
  usergroup: [''],
  gateway_info: '',
};

const compact = (date: string) => date.replace(/-/g, '');
const dashed = (day: string | null) => (day ? `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}` : '');

export function storeInputOf(values: StoreFormValues, mode: 'create' | 'edit') {
  return {
    ...values,
    opening_date: compact(values.opening_date),
    closing_date: compact(values.closing_date),
    usergroup: values.usergroup.filter(Boolean),
    gateway_info: mode === 'edit' && values.gateway_info.trim() === '' ? null : values.gateway_info,
  };
}

export function storeFormValuesOf(store: StoreInfo): StoreFormValues {
  return {
    store_id: store.store_id,
    store_no: store.store_no,
    store_name: store.store_name,
    company_id: store.company_id,
    storegroup_id: store.storegroup_id,
    prefecture_id: String(store.prefecture_id),
    address: store.address,
    tel_no: store.tel_no ?? '',
    opening_date: dashed(store.opening_date),
    closing_date: dashed(store.closing_date),
    usergroup: store.usergroup.map((group) => String(group.usergroup_id)),
    gateway_info: store.gateway_info ?? '',
  };
}

/** What the form checks beyond StoreSaveSchema (001 §5): the company is a required select (the API derives it from the store group). */
export function storeFormProblems(values: Pick<StoreFormValues, 'company_id'>): Record<string, string> {
  return values.company_id ? {} : { company_id: '選択してください' };
}

/**
 * A user group may be a store's when it is of the store's company or of none yet (decision 271):
 * a group's companies are those of the stores linked to it and of the users in it, so a group
 * made for a new store, still unused, can be chosen for it.
 */
export function usergroupFitsCompany(groupCompanies: readonly string[], companyId: string): boolean {
  return groupCompanies.length === 0 || groupCompanies.includes(companyId);
}
