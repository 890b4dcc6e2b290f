import { sql } from 'kysely';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { fromJapan, toCompactDateTime } from '~/domain/japan-time';
import { deleteMeasurements, insertMeasurementRows } from '~/models/measurement-buckets.server';
import { dropMonthsBefore, ensureMeasurementPartitions } from '~/models/measurement-partitions.server';
import { ingestReadings } from '~/services/ingest.server';
import { IngestWriter } from '~/services/ingest-writer.server';
import { up as upDropTriggers } from '../../migrations/2026-11-28-81-buckets-without-triggers';
import { createSensor, createStore } from '../fixtures/chain';
import { bucketDifferences } from '../support/buckets';
import { resetDb, testDb } from '../support/db';

// The 10-minute buckets are kept by the writers of measurements, not by triggers (docs/decisions/283):
// after ingest batches with duplicates and late readings, two batches in one bucket, the one-post
// path, fixture rows, deletes and retention, the bucket table equals a count from scratch.

const db = testDb();
beforeEach(() => resetDb());

const FRIDGE = 'AA:BB:CC:00:0B:01';
const FREEZER = 'AA:BB:CC:00:0B:02';
/** A fixed hour of 2001 (a month no other file uses): bucket edges fall at :05, :15, … */
const at = (minute: number, second = 0) => fromJapan(2001, 2, 10, 8, minute, second);
const now = fromJapan(2001, 2, 10, 12, 0);
const reading = (serial_no: string, when: Date, temperature: number | null, error = false) => ({
  serial_no, measured_at: toCompactDateTime(when), temperature, error, battery: 80, receive_sensitivity: -70,
});

const differences = (from?: Date) => bucketDifferences(db, { from });

async function bucketOf(equipmentId: number, bucket: Date) {
  return db
    .selectFrom('measurement_buckets')
    .select(['value_count', 'gap_count', 'value_tenths'])
    .where('equipment_id', '=', equipmentId)
    .where('bucket', '=', bucket)
    .executeTakeFirst();
}

describe('the 10-minute buckets kept by their writers', () => {
  it('equal a count from scratch after batches with duplicates, late readings, deletes and retention', async () => {
    await ensureMeasurementPartitions(db, fromJapan(2001, 1, 1), fromJapan(2001, 2, 1));
    await createStore(db, 'S001');
    const fridge = await createSensor(db, 'S001', FRIDGE);
    const freezer = await createSensor(db, 'S001', FREEZER);
    await createStore(db, 'S002');
    const other = await createSensor(db, 'S002', FRIDGE);
    const writer = new IngestWriter(db, { windowMs: 100, maxReadings: 10_000, lanes: 2 });

    // Batch 1: two posts of S001 (the second repeats a reading of the first, and one of its own) and one of S002.
    const first = await Promise.all([
      writer.submit('S001', [reading(FRIDGE, at(0), 4.1), reading(FRIDGE, at(1), 4.3), reading(FREEZER, at(0), -18.2), reading(FREEZER, at(1), null, true)], now),
      writer.submit('S001', [reading(FRIDGE, at(1), 4.3), reading(FRIDGE, at(2), 4.6), reading(FRIDGE, at(2), 4.6)], now),
      writer.submit('S002', [reading(FRIDGE, at(0), 3.9), reading(FRIDGE, at(4, 30), 3.8)], now),
    ]);
    expect(first.map((answer) => [answer.accepted, answer.duplicates])).toEqual([[4, 0], [1, 2], [2, 0]]);
    expect(await bucketOf(fridge, at(0))).toEqual({ value_count: 3, gap_count: 0, value_tenths: 130 });

    // Batch 2 touches the same bucket again (a late reading inside it and a repeat), an older hour and a month before.
    const second = await Promise.all([
      writer.submit('S001', [reading(FRIDGE, at(3), 5.0), reading(FRIDGE, at(0), 4.1), reading(FRIDGE, at(-50), 2.0), reading(FREEZER, at(-4, 59), -17.0)], now),
      writer.submit('S002', [reading(FRIDGE, fromJapan(2001, 1, 20, 3, 0), 4.4), reading(FRIDGE, fromJapan(2001, 1, 20, 3, 7), null, true)], now),
    ]);
    expect(second.map((answer) => [answer.accepted, answer.duplicates])).toEqual([[3, 1], [2, 0]]);
    expect(await bucketOf(fridge, at(0))).toEqual({ value_count: 4, gap_count: 0, value_tenths: 180 });
    // One post in a transaction of its own (seeds, tools) into a bucket the writer made; fixture rows beside it.
    await ingestReadings(db, 'S002', [reading(FRIDGE, at(1), 4.0), reading(FRIDGE, at(0), 3.9)], now);
    expect(await insertMeasurementRows(db, [
      { store_id: 'S001', equipment_id: freezer, measured_at: at(9, 59), temperature: -19.5, error: false },
      { store_id: 'S001', equipment_id: freezer, measured_at: at(0), temperature: -18.2, error: false },
    ])).toBe(1);
    expect(await differences()).toEqual({ onlyKept: [], onlyCounted: [] });
    expect(await bucketOf(other, at(0))).toEqual({ value_count: 3, gap_count: 0, value_tenths: 117 });

    // Deletes: part of a bucket, the whole of another (it goes), and a whole sensor in one store.
    expect(await deleteMeasurements(db, { equipmentIds: [fridge], from: at(2), until: at(3, 1) })).toBe(2);
    expect(await deleteMeasurements(db, { equipmentIds: [fridge], from: at(-51), until: at(-49) })).toBe(1);
    expect(await bucketOf(fridge, at(-50))).toBeUndefined();
    expect(await deleteMeasurements(db, { storeIds: ['S001'], equipmentIds: [freezer] })).toBe(4);
    expect(await differences()).toEqual({ onlyKept: [], onlyCounted: [] });
    expect(await bucketOf(fridge, at(0))).toEqual({ value_count: 2, gap_count: 0, value_tenths: 84 });

    // Retention drops January's readings; their buckets outlive them (decision 188), the rest still equal a count.
    const januaryBuckets = await db.selectFrom('measurement_buckets').selectAll().where('bucket', '<', fromJapan(2001, 2, 1)).orderBy('bucket').execute();
    expect(januaryBuckets).toHaveLength(2);
    const { dropped } = await dropMonthsBefore(db, 'measurements', 'measured_at', fromJapan(2001, 2, 1));
    expect(dropped).toContain('measurements_200101');
    expect(await db.selectFrom('measurements').select('measured_at').where('measured_at', '<', fromJapan(2001, 2, 1)).execute()).toEqual([]);
    expect(await db.selectFrom('measurement_buckets').selectAll().where('bucket', '<', fromJapan(2001, 2, 1)).orderBy('bucket').execute()).toEqual(januaryBuckets);
    expect(await differences(fromJapan(2001, 2, 1))).toEqual({ onlyKept: [], onlyCounted: [] });
  });

  // The migration drops triggers a database distributed on Citus never had (decision 225): plain PostgreSQL only.
  it.skipIf(inject('onCitus'))('are counted again from the readings by the migration that drops the triggers, older buckets kept', async () => {
    await createStore(db, 'S001');
    const fridge = await createSensor(db, 'S001', FRIDGE);
    // A bucket whose readings retention dropped, readings stored without their buckets, and a wrong bucket.
    await insertMeasurementRows(db, [{ store_id: 'S001', equipment_id: fridge, measured_at: fromJapan(2000, 12, 1, 9, 0), temperature: 3, error: false }]);
    await sql`delete from measurements where measured_at < ${fromJapan(2001, 1, 1)}`.execute(db);
    await sql`insert into measurements (store_id, equipment_id, measured_at, temperature, error)
      values ('S001', ${fridge}, ${at(0)}, 4.2, false), ('S001', ${fridge}, ${at(1)}, null, true), ('S001', ${fridge}, ${at(30)}, 5.5, false)`.execute(db);
    await insertMeasurementRows(db, [{ store_id: 'S001', equipment_id: fridge, measured_at: at(2), temperature: 4.4, error: false }]);
    await db.updateTable('measurement_buckets').set({ value_count: 9 }).where('bucket', '=', at(0)).execute();
    expect((await differences(fromJapan(2001, 1, 1))).onlyCounted).toHaveLength(2);

    await upDropTriggers(db);
    expect(await differences(fromJapan(2001, 1, 1))).toEqual({ onlyKept: [], onlyCounted: [] });
    expect(await bucketOf(fridge, fromJapan(2000, 12, 1, 9, 0))).toEqual({ value_count: 1, gap_count: 0, value_tenths: 30 });
  });

  it('are no longer kept by a trigger on measurements', async () => {
    const { rows } = await sql<{ tgname: string }>`
      select tgname from pg_trigger where tgrelid = 'measurements'::regclass and not tgisinternal`.execute(db);
    expect(rows).toEqual([]);
  });
});
