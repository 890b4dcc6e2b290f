import { beforeEach, describe, expect, it } from 'vitest';
import { toCompactDateTime } from '~/domain/japan-time';
import { IngestWriter } from '~/services/ingest-writer.server';
import { countRows, createSensor, createStore, createUser } from '../fixtures/chain';
import { counted, resetDb, testDb } from '../support/db';

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

  it('stores twenty stores\' posts in as many statements as one store\'s', async () => {
    const stores = Array.from({ length: 21 }, (_, index) => `W${String(index).padStart(3, '0')}`);
    for (const store of stores) {
      await createStore(db, store);
      await createSensor(db, store, 'AA:BB:CC:00:00:01');
      await createSensor(db, store, 'AA:BB:CC:00:00:02');
    }
    const post = () => [reading('AA:BB:CC:00:00:01', 2, 4), reading('AA:BB:CC:00:00:02', 2, 5), reading('AA:BB:CC:00:00:01', 1, 4)];
    const one = counted(db);
    await new IngestWriter(one.db, { windowMs: 50, maxReadings: 10_000, lanes: 1 }).submit(stores[0], post(), new Date());
    const twenty = counted(db);
    const writer = new IngestWriter(twenty.db, { windowMs: 200, maxReadings: 10_000, lanes: 1 });
    const answers = await Promise.all(stores.slice(1).map((store) => writer.submit(store, post(), new Date())));
    expect(answers.every((answer) => answer.accepted === 3)).toBe(true);
    expect(one.statements()).toBeGreaterThan(5); // the counter sees the writer's statements
    expect(twenty.statements()).toBe(one.statements());
    expect(await countRows(db, 'measurements')).toBe(63);
    const states = await db.selectFrom('sensor_states').select(['last_temperature', 'updated_at']).execute();
    expect(states).toHaveLength(42);
    const contacts = await db.selectFrom('stores').select('last_gateway_contact_at').execute();
    expect(contacts.every((store) => store.last_gateway_contact_at !== null)).toBe(true);
  });

  it('writes the alert a post opens beside quiet posts of the same batch, and a store\'s later post judged after its earlier one', async () => {
    for (const store of ['A001', 'A002', 'A003']) {
      await createStore(db, store, { working_state: 1 });
      await createSensor(db, store, 'AA:BB:CC:00:00:01', { upper_limit: 10, lower_limit: 0 });
      const userId = await createUser(db, `${store.toLowerCase()}-user`, 30, { storeIds: [store] });
      await db.updateTable('users').set({ alert_filter: 0 }).where('user_id', '=', userId).execute();
    }
    const writer = new IngestWriter(db, { windowMs: 200, maxReadings: 10_000, lanes: 1 });
    const now = new Date();
    await Promise.all([
      writer.submit('A001', [reading('AA:BB:CC:00:00:01', 3, 14)], now), // opens an upper-limit alert
      writer.submit('A002', [reading('AA:BB:CC:00:00:01', 3, 4)], now), // quiet
      writer.submit('A003', [reading('AA:BB:CC:00:00:01', 3, 4)], now), // quiet, then its next post opens one
      writer.submit('A003', [reading('AA:BB:CC:00:00:01', 2, 15)], now),
    ]);
    const history = await db.selectFrom('alert_history').select(['store_id', 'alert_id', 'alert_data1', 'recovered_at']).orderBy('store_id').execute();
    expect(history).toEqual([
      { store_id: 'A001', alert_id: 'OE00000001', alert_data1: '14.0', recovered_at: null },
      { store_id: 'A003', alert_id: 'OE00000001', alert_data1: '15.0', recovered_at: null },
    ]);
    const mails = await db.selectFrom('mail_outbox').select('store_id').orderBy('store_id').execute();
    expect(mails.map((mail) => mail.store_id)).toEqual(['A001', 'A003']);
    const statuses = await db.selectFrom('stores').select(['store_id', 'store_status']).orderBy('store_id').execute();
    const states = await db.selectFrom('sensor_states').select(['store_id', 'status', 'alert_codes', 'last_temperature']).orderBy('store_id').execute();
    expect(states).toEqual([
      { store_id: 'A001', status: 2, alert_codes: ['OE00000001'], last_temperature: 14 },
      { store_id: 'A002', status: 0, alert_codes: [], last_temperature: 4 },
      { store_id: 'A003', status: 2, alert_codes: ['OE00000001'], last_temperature: 15 },
    ]);
    // 警報発生中 for the alerting stores, 正常 for the quiet one (000 §4's codes).
    expect(statuses.map((row) => row.store_status)).toEqual([3, 2, 3]);
  });
});
