import { beforeEach, describe, expect, it } from 'vitest';
import { toCompactDateTime } from '~/domain/japan-time';
import { IngestWriter } from '~/services/ingest-writer.server';
import { countRows, createSensor, createStore } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';

// The group-commit writer (docs/decisions/220) against a real PostgreSQL: posts of several stores
// in one transaction, each answered with its own counts, and one failing post not failing the rest.

const db = testDb();
beforeEach(() => resetDb());

const minute = Math.floor(Date.now() / 60_000) * 60_000;
const reading = (serial_no: string, minutesAgo: number, temperature: number) => ({
  serial_no, measured_at: toCompactDateTime(new Date(minute - minutesAgo * 60_000)), temperature, error: false, battery: 80, receive_sensitivity: -70,
});

describe('the ingest writer', () => {
  it('writes the posts of a window in one transaction and answers each with its own counts', async () => {
    for (const store of ['S001', 'S002']) {
      await createStore(db, store);
      await createSensor(db, store, 'AA:BB:CC:00:00:01');
    }
    const writer = new IngestWriter(db, { windowMs: 200, maxReadings: 10_000, lanes: 1 });
    const now = new Date();
    const [a, b, c] = await Promise.all([
      writer.submit('S001', [reading('AA:BB:CC:00:00:01', 3, 4), reading('AA:BB:CC:00:00:01', 2, 5)], now),
      writer.submit('S002', [reading('AA:BB:CC:00:00:01', 3, 4), reading('AA:BB:CC:00:00:09', 2, 5), { serial_no: 'x' }], now),
      // the same store again in the same batch: its first reading is now a duplicate
      writer.submit('S001', [reading('AA:BB:CC:00:00:01', 3, 4), reading('AA:BB:CC:00:00:01', 1, 6)], now),
    ]);
    expect(a).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    expect(b.accepted).toBe(1);
    expect(b.rejected.map((r) => r.index)).toEqual([1, 2]);
    expect(c).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
    expect(await countRows(db, 'measurements')).toBe(4);
    const states = await db.selectFrom('sensor_states').select(['store_id', 'last_temperature']).orderBy('store_id').execute();
    expect(states).toEqual([{ store_id: 'S001', last_temperature: 6 }, { store_id: 'S002', last_temperature: 4 }]);
  });

  it('answers a failing post with its error and still commits the others of its batch', async () => {
    await createStore(db, 'S001');
    await createSensor(db, 'S001', 'AA:BB:CC:00:00:01');
    await createStore(db, 'S003');
    await createSensor(db, 'S003', 'AA:BB:CC:00:00:01');
    const writer = new IngestWriter(db, { windowMs: 200, maxReadings: 10_000, lanes: 1 });
    const now = new Date();
    const answers = await Promise.allSettled([
      writer.submit('S001', [reading('AA:BB:CC:00:00:01', 3, 4)], now),
      // a store that is gone (deleted after its token was checked) fails inside the transaction
      writer.submit('S002', [reading('AA:BB:CC:00:00:01', 3, 4)], now),
      writer.submit('S003', [reading('AA:BB:CC:00:00:01', 3, 4)], now),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((answers[1] as PromiseRejectedResult).reason)).toContain('S002');
    const stored = await db.selectFrom('measurements').select('store_id').orderBy('store_id').execute();
    expect(stored.map((row) => row.store_id)).toEqual(['S001', 'S003']);
  });

  it('writes a batch at once when enough readings wait, without waiting out the window', async () => {
    await createStore(db, 'S001');
    await createSensor(db, 'S001', 'AA:BB:CC:00:00:01');
    const writer = new IngestWriter(db, { windowMs: 60_000, maxReadings: 2, lanes: 1 });
    const t0 = performance.now();
    const answer = await writer.submit('S001', [reading('AA:BB:CC:00:00:01', 3, 4), reading('AA:BB:CC:00:00:01', 2, 4)], new Date());
    expect(answer.accepted).toBe(2);
    expect(performance.now() - t0).toBeLessThan(30_000);
  });
});
