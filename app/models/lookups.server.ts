import type { ExpressionBuilder, Expression, SqlBool } from 'kysely';
import type { Db } from '~/db/db.server';
import type { Database } from '~/db/schema';
import { seesAllStores } from '~/domain/roles';
import { storeVisibleTo } from './stores.server';
import type { Viewer } from './users.server';

// The lookup lists of the dashboard filters and the forms. Companies and their store groups are
// the chains' own: a user who does not see every store sees only the companies of the stores
// they see (another chain's name is not theirs to know, nor to use in a store save).

export function listRegions(db: Db) {
  return db.selectFrom('regions').select(['region_id', 'region_name']).orderBy('region_id').execute();
}

export function listPrefectures(db: Db, regionId?: number) {
  let query = db.selectFrom('prefectures').select(['prefecture_id', 'prefecture_name', 'region_id']).orderBy('prefecture_id');
  if (regionId) query = query.where('region_id', '=', regionId);
  return query.execute();
}

/** `companyId` names a company the viewer may see and use: any for staff, else one owning a store they see. */
export function companyVisibleTo(viewer: Viewer, companyId: Expression<string> | string) {
  return (eb: ExpressionBuilder<Database, any>): Expression<SqlBool> => {
    if (seesAllStores(viewer.authority)) return eb.val(true);
    return eb.exists(eb.selectFrom('stores').select('stores.store_id').where('stores.company_id', '=', companyId).where(storeVisibleTo(viewer)));
  };
}

export function listCompanies(db: Db, viewer: Viewer) {
  return db
    .selectFrom('companies')
    .select(['company_id', 'company_name'])
    .where((eb) => companyVisibleTo(viewer, eb.ref('companies.company_id'))(eb))
    .orderBy('company_id')
    .execute();
}

export function listStoregroups(db: Db, viewer: Viewer, companyId?: string) {
  let query = db
    .selectFrom('storegroups')
    .innerJoin('companies', 'companies.company_id', 'storegroups.company_id')
    .select(['storegroups.storegroup_id', 'storegroups.storegroup_name', 'storegroups.company_id', 'companies.company_name'])
    .where((eb) => companyVisibleTo(viewer, eb.ref('storegroups.company_id'))(eb))
    .orderBy('storegroups.company_id')
    .orderBy('storegroups.storegroup_id');
  if (companyId) query = query.where('storegroups.company_id', '=', companyId);
  return query.execute();
}

/** The authority list (authority, authorityName) of the user group form's select (001 §3). */
export async function listAuthorities(db: Db): Promise<{ authority: number; authorityName: string }[]> {
  const rows = await db.selectFrom('authorities').select(['authority', 'authority_name']).orderBy('authority').execute();
  return rows.map((row) => ({ authority: row.authority, authorityName: row.authority_name }));
}
