import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { createSensor, createStore, issuePin } from '../fixtures/chain';

// The gateway daemon against the real console: pair with the store's PIN, replay a capture of
// 20 sensors over 3 hours, upload everything, and find it in the console's tables.
const db = createDb(inject('databaseUrl'), 2);
afterAll(() => db.destroy());

const FIXTURES = path.resolve('tests/fixtures/gateway');
const CONFIG = JSON.parse(readFileSync(path.join(FIXTURES, 'store-config.json'), 'utf8')) as { sensors: { serial_no: string; encryption_key: string | null }[] };

function gateway(args: string[]) {
  return spawnSync(process.execPath, [path.resolve('bin/onreco-gateway.js'), ...args], { encoding: 'utf8', timeout: 120_000 });
}

describe('gateway daemon → console', () => {
  it('pairs, replays a capture and uploads every reading into the console', async () => {
    await createStore(db, 'GWE2E');
    await db.updateTable('stores').set({ working_state: 0 }).where('store_id', '=', 'GWE2E').execute();
    for (const [i, sensor] of CONFIG.sensors.entries()) {
      await createSensor(db, 'GWE2E', sensor.serial_no, { equipment_name: `ケース${i + 1}`, lower_limit: -30, upper_limit: 60 });
      if (sensor.encryption_key) await db.updateTable('sensors').set({ encryption_key: sensor.encryption_key }).where('serial_no', '=', sensor.serial_no).execute();
    }
    await issuePin(db, 'GWE2E', '135790');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'onreco-gw-e2e-'));
    const pair = gateway(['pair', '--data-dir', dataDir, '--server', inject('baseUrl'), '--gateway-info', 'GW-GWE2E', '--pin', '135790']);
    expect(pair.status, pair.stderr).toBe(0);
    const run = gateway(['run', '--data-dir', dataDir, '--source', `replay:${path.join(FIXTURES, 'store-capture.jsonl.gz')}`, '--exit-when-drained']);
    expect(run.status, run.stderr).toBe(0);
    const { rows } = await sql<{ n: number; sensors: number; errors: number }>`
      select count(*)::int as n, count(distinct equipment_id)::int as sensors, count(*) filter (where error)::int as errors
      from measurements where store_id = 'GWE2E'`.execute(db);
    // The gateway's own test derives 3,575 readings from this capture (one per sensor and heard minute).
    expect(rows[0]).toEqual({ n: 3575, sensors: 20, errors: 5 });
    const store = await db.selectFrom('stores').select(['working_state', 'last_gateway_contact_at']).where('store_id', '=', 'GWE2E').executeTakeFirstOrThrow();
    expect(store.working_state).toBe(1);
    const status = gateway(['status', '--data-dir', dataDir, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ buffer: { depth: 0 } });
  });
});
