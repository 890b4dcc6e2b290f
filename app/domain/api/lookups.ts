import { CompanyListSchema, PrefectureListSchema, PrefectureQuerySchema, RegionListSchema, StoregroupListSchema, StoregroupQuerySchema } from '../lookup-schemas';
import { defineCall } from './call';

// The lookup lists of the dashboard filters and the forms: any signed-in user.

export const listRegions = defineCall({
  id: 'listRegions',
  method: 'GET',
  path: '/on-reco/v1/region',
  summary: 'Regions',
  access: { kind: 'user' },
  answer: { statuses: [200], json: RegionListSchema, description: 'region_id, region_name.' },
});

export const listPrefectures = defineCall({
  id: 'listPrefectures',
  method: 'GET',
  path: '/on-reco/v1/prefecture',
  summary: 'Prefectures, optionally of one region',
  access: { kind: 'user' },
  input: { in: 'query', schema: PrefectureQuerySchema },
  answer: { statuses: [200], json: PrefectureListSchema, description: 'prefecture_id (JIS code), prefecture_name, region_id.' },
  references: { region_id: 'region' },
});

export const listCompanies = defineCall({
  id: 'listCompanies',
  method: 'GET',
  path: '/on-reco/v1/company',
  summary: 'Companies',
  access: { kind: 'user' },
  answer: { statuses: [200], json: CompanyListSchema, description: 'company_id, company_name.' },
});

export const listStoregroups = defineCall({
  id: 'listStoregroups',
  method: 'GET',
  path: '/on-reco/v1/storegroup',
  summary: 'Store groups, optionally of one company',
  access: { kind: 'user' },
  input: { in: 'query', schema: StoregroupQuerySchema },
  answer: { statuses: [200], json: StoregroupListSchema, description: 'storegroup_id, storegroup_name, company_id, company_name.' },
  references: { company_id: 'company' },
});
