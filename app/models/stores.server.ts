import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { Database } from '~/db/schema';
import { seesAllStores } from '~/domain/roles';
import type { Viewer } from './users.server';

/**
 * The where-condition that limits `stores` to what the viewer may see: every store for
 * administrators and maintenance, otherwise the stores linked to one of their user groups.
 */
export function storeVisibleTo(viewer: Viewer) {
  return (eb: ExpressionBuilder<Database, 'stores'>) =>
    seesAllStores(viewer.authority)
      ? sql<boolean>`true`
      : eb.exists(
          eb
            .selectFrom('store_usergroups as su')
            .innerJoin('user_usergroups as uu', 'uu.usergroup_id', 'su.usergroup_id')
            .select(sql`1`.as('one'))
            .whereRef('su.store_id', '=', 'stores.store_id')
            .where('uu.user_id', '=', viewer.userId),
        );
}

export async function canViewStore(db: Db, viewer: Viewer, storeId: string): Promise<boolean> {
  const row = await db
    .selectFrom('stores')
    .select('stores.store_id')
    .where('stores.store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
  return row !== undefined;
}

export interface StoreHeader {
  storeId: string;
  storeName: string;
  workingState: number | null;
}

/** The store's name and working state for the store layout, or null when the viewer may not see it. */
export async function getStoreHeader(db: Db, viewer: Viewer, storeId: string): Promise<StoreHeader | null> {
  const row = await db
    .selectFrom('stores')
    .select(['stores.store_id as storeId', 'stores.store_name as storeName', 'stores.working_state as workingState'])
    .where('stores.store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
  return row ?? null;
}
