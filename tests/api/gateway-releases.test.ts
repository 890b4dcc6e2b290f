import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { getReleaseOffer, listRolloutProgress, recordUpdateFailure } from '~/models/gateway-releases.server';
import { createCompany, createStore } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';

const db = testDb();
beforeEach(() => resetDb());

async function group(stores: string[]) {
  await createCompany(db, 'CREL', 'GREL');
  for (const storeId of stores) await createStore(db, storeId, { company_id: 'CREL', storegroup_id: 'GREL' });
  await db.insertInto('gateway_releases').values({ version: '0.3.0', bundle: gzipSync('x'), sha256: 'a'.repeat(64), signature: `${'A'.repeat(86)}==`, size_bytes: 21, uploaded_at: new Date(), uploaded_by: null }).execute();
  await db.insertInto('gateway_rollouts').values({ storegroup_id: 'GREL', version: '0.3.0', wave_percent: 30, paused: false, started_at: new Date(), updated_at: new Date(), updated_by: null }).execute();
}

/** The store's health says `version`; `uploaded`: readings came after that report. */
async function runs(storeId: string, version: string, uploaded = true) {
  const now = new Date(Date.now() - 1000);
  const row = { store_id: storeId, reported_at: now, received_at: now, version, uptime_seconds: 1, buffer_depth: 0, buffer_capacity: 10, oldest_unsent_at: null, disk_free_bytes: null, disk_total_bytes: null, ble_adapter: 'on', sensors_heard: 0, lte_rssi: null, dropped_total: 0, buffer_over_half: false, weak_signal: false };
  await db.insertInto('gateway_health').values(row).onConflict((oc) => oc.column('store_id').doUpdateSet({ version, received_at: now })).execute();
  await db.updateTable('stores').set({ last_gateway_contact_at: uploaded ? new Date() : null }).where('store_id', '=', storeId).execute();
}

const offered = async (stores: string[]) => Promise.all(stores.map(async (storeId) => (await getReleaseOffer(db, storeId))?.version ?? null));

describe('a store group\'s rollout as /config offers it', () => {
  it('offers the first wave only, then the rest once the first runs it; never again to a box that failed it', async () => {
    const stores = ['RL001', 'RL002', 'RL003'];
    await group(stores);
    for (const storeId of stores) await runs(storeId, '0.2.0');
    expect(await offered(stores)).toEqual(['0.3.0', null, null]);
    await runs('RL001', '0.3.0', false);
    expect(await offered(stores)).toEqual(['0.3.0', null, null]);
    await runs('RL001', '0.3.0');
    expect(await offered(stores)).toEqual(['0.3.0', '0.3.0', '0.3.0']);
    await recordUpdateFailure(db, 'RL002', '0.3.0', 'exited 3 times at start', new Date());
    expect(await offered(stores)).toEqual(['0.3.0', null, '0.3.0']);
    const [progress] = await listRolloutProgress(db);
    expect(progress.waves.map((w) => [w.updated, w.pending, w.failed])).toEqual([[1, 0, 0], [0, 1, 1]]);
    expect(progress.gateways.find((g) => g.storeId === 'RL002')).toMatchObject({ wave: 2, state: 'failed', failure: 'exited 3 times at start' });
  });
});
