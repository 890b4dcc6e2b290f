import { CompanyListSchema, PrefectureListSchema, PrefectureQuerySchema, RegionListSchema, StoregroupListSchema, StoregroupQuerySchema } from '../lookup-schemas';
import { defineCall, jsonAnswer, query } from './call';

// The lookup lists of the dashboard filters and the forms: any signed-in user.

export const listRegions = defineCall('listRegions', 'GET /on-reco/v1/region', {
  summary: 'Regions',
  answer: jsonAnswer(RegionListSchema, 'region_id, region_name.'),
});

export const listPrefectures = defineCall('listPrefectures', 'GET /on-reco/v1/prefecture', {
  summary: 'Prefectures, optionally of one region',
  input: query(PrefectureQuerySchema),
  answer: jsonAnswer(PrefectureListSchema, 'prefecture_id (JIS code), prefecture_name, region_id.'),
  references: { region_id: 'region' },
});

const ownChains = 'Administrators and maintenance get all; others the companies of the stores they see.';

export const listCompanies = defineCall('listCompanies', 'GET /on-reco/v1/company', {
  summary: 'Companies',
  description: ownChains,
  answer: jsonAnswer(CompanyListSchema, 'company_id, company_name.'),
});

export const listStoregroups = defineCall('listStoregroups', 'GET /on-reco/v1/storegroup', {
  summary: 'Store groups, optionally of one company',
  description: ownChains,
  input: query(StoregroupQuerySchema),
  answer: jsonAnswer(StoregroupListSchema, 'storegroup_id, storegroup_name, company_id, company_name.'),
  references: { company_id: 'company' },
});
