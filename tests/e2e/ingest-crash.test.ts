import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { sql } from 'kysely';
import { createDb } from '../../app/db/db.server';
import { toCompactDateTime } from '../../app/domain/japan-time';
import { createSensor, createStore, issuePin } from '../fixtures/chain';
import { bucketDifferences } from '../support/buckets';
import { serveConsole } from '../support/console';
import { seededRandom, testSeed } from '../support/seed';

const db = createDb(inject('databaseUrl'), 2);
afterAll(() => db.destroy());

describe('kill -9 of the web server during ingest', () => {
  it('stores every reading the API acknowledged exactly once', async () => {
    await createStore(db, 'CRASH1');
    const serials = Array.from({ length: 10 }, (_, i) => `AA:BB:CC:DD:EF:${String(i).padStart(2, '0')}`);
    for (const serial of serials) await createSensor(db, 'CRASH1', serial);
    await issuePin(db, 'CRASH1', '777777');
    let server = await serveConsole(inject('databaseUrl'));
    const pair = await fetch(`${server.base}/on-reco/v1/gateway/pair`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ gateway_info: 'GW-CRASH1', pin_code: '777777' }) });
    const { gateway_token: token } = (await pair.json()) as { gateway_token: string };

    const start = Date.now() - 30 * 86400_000;
    const batches = Array.from({ length: 60 }, (_, b) => ({
      readings: Array.from({ length: 100 }, (_, i) => {
        const minute = b * 10 + Math.floor(i / 10);
        return { serial_no: serials[i % 10], measured_at: toCompactDateTime(new Date(start + minute * 60_000)), temperature: 4 + (i % 7) / 10, error: false, battery: 90, receive_sensitivity: -70 };
      }),
    }));
    const acknowledged = new Set<number>();
    let kills = 0;
    const random = seededRandom(testSeed('web server kill -9 during ingest', 30));
    // Like a gateway: send each batch until the server answers for it; kill the server at random moments.
    for (let b = 0; b < batches.length; ) {
      if (b > 0 && b % 12 === 0 && kills < b / 12) {
        const killAfter = random() * 30;
        setTimeout(() => server.process.kill('SIGKILL'), killAfter);
        kills += 1;
      }
      try {
        const response = await fetch(`${server.base}/on-reco/v1/gateway/readings`, {
          method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(batches[b]),
        });
        if (response.ok) {
          const result = (await response.json()) as { accepted: number; duplicates: number; rejected: unknown[] };
          expect(result.rejected).toEqual([]);
          expect(result.accepted + result.duplicates).toBe(100);
          acknowledged.add(b);
          b += 1;
          continue;
        }
      } catch {
        // connection refused or reset: the server is down
      }
      if (server.process.exitCode !== null || server.process.signalCode !== null) server = await serveConsole(inject('databaseUrl'));
    }
    await server.stop();
    expect(kills).toBeGreaterThanOrEqual(4);
    expect(acknowledged.size).toBe(60);
    const { rows } = await sql<{ n: number; distinct_n: number }>`
      select count(*)::int as n, count(distinct (equipment_id, measured_at))::int as distinct_n from measurements where store_id = 'CRASH1'`.execute(db);
    expect(rows[0]).toEqual({ n: 6000, distinct_n: 6000 });
    // The buckets, kept by the writer's batch in the readings' transaction, count each reading once.
    expect(await bucketDifferences(db, { storeIds: ['CRASH1'] })).toEqual({ onlyKept: [], onlyCounted: [] });
    // Five starts of the console: seconds each on a quiet machine, more beside the rest of the suite.
  }, 240_000);
});
