import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { type GroupGateway, offeredTo, planRollout, type RolloutFacts, type RolloutView } from '~/domain/gateway-rollout';

// Gateway releases, rollouts and the boxes' failed updates (decision 291). Releases are chain-wide
// (administrators only, the routes check); a gateway reads only its own offer.

export interface ReleaseRow {
  version: string;
  sha256: string;
  signature: string;
  sizeBytes: number;
  uploadedAt: string;
  uploadedBy: number | null;
}

export async function getReleaseMeta(db: Db, version: string): Promise<ReleaseRow | null> {
  const row = await db
    .selectFrom('gateway_releases')
    .select(['version', 'sha256', 'signature', 'size_bytes', 'uploaded_at', 'uploaded_by'])
    .where('version', '=', version)
    .executeTakeFirst();
  return row ? toRelease(row) : null;
}

export async function insertRelease(db: Db, release: { version: string; bundle: Buffer; sha256: string; signature: string; uploadedAt: Date; uploadedBy: number | null }): Promise<boolean> {
  const result = await db
    .insertInto('gateway_releases')
    .values({
      version: release.version,
      bundle: release.bundle,
      sha256: release.sha256,
      signature: release.signature,
      size_bytes: release.bundle.byteLength,
      uploaded_at: release.uploadedAt,
      uploaded_by: release.uploadedBy,
    })
    .onConflict((oc) => oc.column('version').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function listReleases(db: Db): Promise<ReleaseRow[]> {
  const rows = await db
    .selectFrom('gateway_releases')
    .select(['version', 'sha256', 'signature', 'size_bytes', 'uploaded_at', 'uploaded_by'])
    .orderBy('uploaded_at', 'desc')
    .execute();
  return rows.map(toRelease);
}

export async function getReleaseBundle(db: Db, version: string): Promise<Buffer | null> {
  const row = await db.selectFrom('gateway_releases').select('bundle').where('version', '=', version).executeTakeFirst();
  return row?.bundle ?? null;
}

function toRelease(row: { version: string; sha256: string; signature: string; size_bytes: number; uploaded_at: Date; uploaded_by: number | null }): ReleaseRow {
  return { version: row.version, sha256: row.sha256, signature: row.signature, sizeBytes: row.size_bytes, uploadedAt: new Date(row.uploaded_at).toISOString(), uploadedBy: row.uploaded_by };
}

// ---- rollouts ---------------------------------------------------------------------------------

export interface RolloutRow extends RolloutFacts {
  storegroupId: string;
  storegroupName: string;
  startedAt: string;
}

export async function getRollout(db: Db, storegroupId: string): Promise<RolloutRow | null> {
  return (await listRolloutRows(db, storegroupId))[0] ?? null;
}

async function listRolloutRows(db: Db, storegroupId?: string): Promise<RolloutRow[]> {
  const rows = await db
    .selectFrom('gateway_rollouts as r')
    .innerJoin('storegroups as g', 'g.storegroup_id', 'r.storegroup_id')
    .select(['r.storegroup_id', 'g.storegroup_name', 'r.version', 'r.wave_percent', 'r.paused', 'r.started_at'])
    .$if(storegroupId !== undefined, (qb) => qb.where('r.storegroup_id', '=', storegroupId!))
    .orderBy('r.storegroup_id')
    .execute();
  return rows.map((row) => ({
    storegroupId: row.storegroup_id,
    storegroupName: row.storegroup_name,
    version: row.version,
    wavePercent: row.wave_percent,
    paused: row.paused,
    startedAt: new Date(row.started_at).toISOString(),
  }));
}

/** Starts (or replaces) a group's rollout: a new version starts again at wave 1, unpaused. */
export async function saveRollout(db: Db, rollout: { storegroupId: string; version: string; wavePercent: number; now: Date; userId: number }): Promise<void> {
  await db
    .insertInto('gateway_rollouts')
    .values({ storegroup_id: rollout.storegroupId, version: rollout.version, wave_percent: rollout.wavePercent, paused: false, started_at: rollout.now, updated_at: rollout.now, updated_by: rollout.userId })
    .onConflict((oc) =>
      oc.column('storegroup_id').doUpdateSet({
        version: rollout.version,
        wave_percent: rollout.wavePercent,
        paused: false,
        started_at: sql`case when gateway_rollouts.version = excluded.version then gateway_rollouts.started_at else excluded.started_at end`,
        updated_at: rollout.now,
        updated_by: rollout.userId,
      }),
    )
    .execute();
}

export async function setRolloutPaused(db: Db, storegroupId: string, paused: boolean, now: Date, userId: number): Promise<boolean> {
  const result = await db.updateTable('gateway_rollouts').set({ paused, updated_at: now, updated_by: userId }).where('storegroup_id', '=', storegroupId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The gateways (stores with a gateway) of a group, with the version each runs and whether it failed `version`. */
async function groupGateways(db: Db, storegroupId: string, version: string): Promise<(GroupGateway & { storeNo: string; storeName: string; failure: string | null })[]> {
  const rows = await db
    .selectFrom('stores')
    .leftJoin('gateway_health as h', 'h.store_id', 'stores.store_id')
    .leftJoin('gateway_update_failures as f', (join) => join.onRef('f.store_id', '=', 'stores.store_id').on('f.version', '=', version))
    .select(['stores.store_id', 'stores.store_no', 'stores.store_name', 'h.version', 'f.reason', sql<boolean>`coalesce(stores.last_gateway_contact_at > h.received_at, false)`.as('uploaded_since')])
    .where('stores.storegroup_id', '=', storegroupId)
    .where('stores.gateway_info', 'is not', null)
    .execute();
  return rows.map((row) => ({ storeId: row.store_id, storeNo: row.store_no, storeName: row.store_name, runningVersion: row.version, uploadedSince: row.uploaded_since, failed: row.reason !== null, failure: row.reason }));
}

export interface ReleaseOffer {
  version: string;
  sha256: string;
  signature: string;
  size_bytes: number;
}

/** The release the store's gateway should run now, or null (no rollout, paused, not its wave yet, or it failed that version). */
export async function getReleaseOffer(db: Db, storeId: string): Promise<ReleaseOffer | null> {
  const store = await db.selectFrom('stores').select('storegroup_id').where('store_id', '=', storeId).executeTakeFirst();
  if (!store) return null;
  const rollout = await getRollout(db, store.storegroup_id);
  if (!rollout || rollout.paused) return null;
  const plan = planRollout(rollout, await groupGateways(db, rollout.storegroupId, rollout.version));
  if (!offeredTo(plan, storeId)) return null;
  const release = await getReleaseMeta(db, rollout.version);
  return release && { version: release.version, sha256: release.sha256, signature: release.signature, size_bytes: release.sizeBytes };
}

export async function recordUpdateFailure(db: Db, storeId: string, version: string, reason: string, now: Date): Promise<void> {
  await db
    .insertInto('gateway_update_failures')
    .values({ store_id: storeId, version, reason, reported_at: now })
    .onConflict((oc) => oc.columns(['store_id', 'version']).doUpdateSet({ reason, reported_at: now }))
    .execute();
}

export type RolloutProgress = RolloutView;

/** Every rollout with each wave's progress and each box's state (the fleet screen, the API). */
export async function listRolloutProgress(db: Db): Promise<RolloutProgress[]> {
  const rollouts = await listRolloutRows(db);
  return Promise.all(
    rollouts.map(async (rollout) => {
      const gateways = await groupGateways(db, rollout.storegroupId, rollout.version);
      const plan = planRollout(rollout, gateways);
      return {
        ...rollout,
        waves: plan.waves,
        gateways: gateways
          .map((g) => ({ storeId: g.storeId, storeNo: g.storeNo, storeName: g.storeName, wave: plan.waveOf.get(g.storeId)!, runningVersion: g.runningVersion, state: plan.stateOf.get(g.storeId)!, failure: g.failure }))
          .sort((a, b) => a.wave - b.wave || (a.storeId < b.storeId ? -1 : 1)),
      };
    }),
  );
}
