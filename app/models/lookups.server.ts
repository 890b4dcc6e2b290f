import type { Db } from '~/db/db.server';

// The lookup lists of the dashboard filters and the forms.

export function listRegions(db: Db) {
  return db.selectFrom('regions').select(['region_id', 'region_name']).orderBy('region_id').execute();
}

export function listPrefectures(db: Db, regionId?: number) {
  let query = db.selectFrom('prefectures').select(['prefecture_id', 'prefecture_name', 'region_id']).orderBy('prefecture_id');
  if (regionId) query = query.where('region_id', '=', regionId);
  return query.execute();
}

export function listCompanies(db: Db) {
  return db.selectFrom('companies').select(['company_id', 'company_name']).orderBy('company_id').execute();
}

export function listStoregroups(db: Db, companyId?: string) {
  let query = db
    .selectFrom('storegroups')
    .innerJoin('companies', 'companies.company_id', 'storegroups.company_id')
    .select(['storegroups.storegroup_id', 'storegroups.storegroup_name', 'storegroups.company_id', 'companies.company_name'])
    .orderBy('storegroups.company_id')
    .orderBy('storegroups.storegroup_id');
  if (companyId) query = query.where('storegroups.company_id', '=', companyId);
  return query.execute();
}
