import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { fromJapan } from '~/domain/japan-time';
import { ROW_KIND } from '~/domain/report-document';
import { planBuckets } from '~/domain/report-buckets';
import { bucketAggregateSql, deleteMeasurements, insertMeasurementRows, insertMeasurementsWithBuckets } from '~/models/measurement-buckets.server';
import { reportBuckets, reportReadingRanges } from '~/models/report-collection.server';
import { recordsInTimeOrder } from '~/db/binary-records.server';
import { collectReport, type ReportSource } from '~/reports/collect.server';
import { renderReportCsv } from '~/reports/csv.server';
import { createSensor, createStore } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';

// Report collection from the 10-minute buckets (docs/decisions/149) against reading every reading:
// a month with errors, empty readings, two readings in a minute, excursions both ways, a change
// of limits and defrost mid-bucket, an alert stop, readings arriving out of order and deleted.

const db = testDb();
beforeEach(() => resetDb());

const OCTOBER = { from: fromJapan(2026, 10, 1), to: fromJapan(2026, 10, 31, 23, 50) };

/** One-minute readings of [from, to) made in SQL: a wave that leaves 0–10 both ways, some errors and empties. */
async function readings(equipmentId: number, from: Date, to: Date, seconds = 0) {
  await insertMeasurementsWithBuckets(db, sql`
    insert into measurements (store_id, equipment_id, measured_at, temperature, error)
    select 'S001', ${equipmentId}, t,
           case when n % 997 = 0 or n % 1231 = 0 then null else round((5 + 6.5 * sin(n / 300.0))::numeric, 1) end,
           n % 997 = 0
    from generate_series(${from}::timestamptz + ${`${seconds} seconds`}::interval, ${to}::timestamptz - interval '1 second', interval '1 minute') t,
         lateral (select (extract(epoch from t) / 60)::bigint as n) x
    on conflict do nothing
    returning store_id, equipment_id, measured_at, temperature, error`);
}

async function month() {
  await createStore(db, 'S001', { store_name: '新宿店' });
  const fridge = await createSensor(db, 'S001', 'AA:BB:CC:00:00:01', { equipment_name: '冷蔵ケース1', def_time: '[{"start":"03:00","end":"03:30"}]' });
  const freezer = await createSensor(db, 'S001', 'AA:BB:CC:00:00:02', { equipment_name: '冷凍庫', lower_limit: -30, upper_limit: 6 });
  // Limits and defrost change at 12:03 on the 15th (inside a bucket).
  const change = fromJapan(2026, 10, 15, 12, 3);
  await db.deleteFrom('sensor_settings_history').where('equipment_id', '=', fridge).execute();
  await db
    .insertInto('sensor_settings_history')
    .values([
      { store_id: 'S001', equipment_id: fridge, effective_from: fromJapan(2026, 9, 1), effective_to: change, lower_limit: 0, upper_limit: 10, def_time: JSON.stringify([{ start: '03:00', end: '03:30' }]) },
      { store_id: 'S001', equipment_id: fridge, effective_from: change, effective_to: null, lower_limit: 2, upper_limit: 8, def_time: JSON.stringify([{ start: '04:05', end: '04:25' }]) },
    ] as never)
    .execute();
  // An alert stop 10:00–11:30 on the 10th to the 12th, for the whole store.
  const { schedule_id } = await db
    .insertInto('alert_schedules')
    .values({ store_id: 'S001', schedule_type: 1, term_type: 2, start_date: '2026-10-10', end_date: '2026-10-12', time_target_type: 1 } as never)
    .returning('schedule_id')
    .executeTakeFirstOrThrow();
  await db.insertInto('alert_schedule_times').values({ store_id: 'S001', schedule_id, equipment_id: null, start_minute: 600, end_minute: 690 }).execute();
  // The second half arrives first, then the first half; a second reading in some minutes; a delete.
  for (const id of [fridge, freezer]) {
    await readings(id, fromJapan(2026, 10, 16), fromJapan(2026, 11, 1));
    await readings(id, fromJapan(2026, 9, 30, 23), fromJapan(2026, 10, 16));
    await readings(id, fromJapan(2026, 10, 20), fromJapan(2026, 10, 20, 2), 30);
  }
  await deleteMeasurements(db, { equipmentIds: [fridge], from: fromJapan(2026, 10, 21, 5, 4), until: fromJapan(2026, 10, 21, 6, 2) });
  return { fridge, freezer };
}

const source = (equipmentIds: number[], interval: { dataInterval: number | null; manualTimes: string[] }): ReportSource => ({
  storeId: 'S001',
  fileName: '月次',
  reportType: 1,
  // The PDF's document: it carries the chart's points (a CSV's has none); the CSV renders from it all the same.
  outputFormat: 1,
  startTime: OCTOBER.from,
  endTime: OCTOBER.to,
  createdAt: new Date('2026-11-01T00:00:00Z'),
  request: { settingName: '月次温度記録', ...interval, option1: 1, option2: 1, equipmentIds, mailFlg: 0, mailAddresses: [], attachmentFlg: 0, createdByName: '管理者' },
});

describe('month reports from the 10-minute buckets', () => {
  it('keeps the buckets equal to a recount of the readings after out-of-order inserts, duplicates and deletes', async () => {
    await month();
    const recount = sql`select * from (${sql.raw(bucketAggregateSql('measurements'))}) r`;
    const columns = sql`store_id, equipment_id, bucket, temperature_sum::numeric(12, 3), temperature_count, gap_count, value_count, value_tenths, value_min, min_at, value_max, max_at, mark_at, mark_temperature, mark_error`;
    const kept = sql`select ${columns} from measurement_buckets`;
    const counted = sql`select ${columns} from (${recount}) r(store_id, equipment_id, bucket, temperature_sum, temperature_count, gap_count, value_count, value_tenths, value_min, min_at, value_max, max_at, mark_at, mark_temperature, mark_error)`;
    const { rows: n } = await sql<{ n: number }>`select count(*)::int as n from measurement_buckets`.execute(db);
    expect(n[0].n).toBeGreaterThan(2 * 4400);
    expect((await sql`(${kept}) except (${counted})`.execute(db)).rows).toEqual([]);
    expect((await sql`(${counted}) except (${kept})`.execute(db)).rows).toEqual([]);
  });

  it('reads each bucket back as the values its columns print (binary records, docs/decisions/192)', async () => {
    const { fridge } = await month();
    // Values that are not tenths (another writer than the ingest API), negative ones, an error and an empty reading at marks.
    const at = (minute: number, second = 0) => fromJapan(2026, 10, 2, 8, minute, second);
    await deleteMeasurements(db, { equipmentIds: [fridge], from: at(35), until: at(65) });
    await insertMeasurementRows(db, [
      { store_id: 'S001', equipment_id: fridge, measured_at: at(40), temperature: -18.25, error: false },
      { store_id: 'S001', equipment_id: fridge, measured_at: at(41, 17), temperature: 3.14159, error: false },
      { store_id: 'S001', equipment_id: fridge, measured_at: at(50), temperature: null, error: true },
      { store_id: 'S001', equipment_id: fridge, measured_at: at(51), temperature: 123456.7, error: false },
      { store_id: 'S001', equipment_id: fridge, measured_at: at(60), temperature: null, error: false },
    ]);
    const until = new Date(OCTOBER.to.getTime() + 10 * 60_000);
    const own = (await reportBuckets(db, 'S001', [fridge], OCTOBER.from, until)).get(fridge)!;
    const { rows } = await sql<Record<string, string | null>>`
      select (extract(epoch from bucket) * 1000)::bigint::text as bucket, gap_count::text as gaps, value_count::text as count, value_tenths::text as tenths,
             value_min::text as min, (extract(epoch from min_at) * 1000)::bigint::text as "minAt", value_max::text as max, (extract(epoch from max_at) * 1000)::bigint::text as "maxAt",
             mark_temperature::text as "markTemperature", mark_error::int::text as "markError"
        from measurement_buckets where equipment_id = ${fridge} and bucket > ${new Date(OCTOBER.from.getTime() - 300_000)} and bucket < ${new Date(until.getTime() + 300_000)} order by bucket`.execute(db);
    expect(own.length).toBe(rows.length);
    const fields = Object.keys(rows[0]) as (keyof typeof own & string)[];
    const read = rows.map((_, i) => Object.fromEntries(fields.map((field) => [field, (own[field] as Float64Array)[i]])));
    expect(read).toEqual(rows.map((row) => Object.fromEntries(fields.map((field) => [field, row[field] === null ? NaN : Number(row[field])]))));
    const marks = read.filter((row) => row.bucket >= at(40).getTime() && row.bucket <= at(60).getTime());
    expect(marks.map((row) => [row.min, row.max, row.markTemperature, row.markError])).toEqual([
      [-18.25, 3.14159, -18.25, 0],
      [123456.7, 123456.7, NaN, 1],
      [NaN, NaN, NaN, 0],
    ]);
    // The raw readings a bucket cannot answer come the same way (binary records, docs/decisions/202).
    const series = (await reportReadingRanges(db, 'S001', [{ equipmentId: fridge, from: at(35).getTime(), to: at(65).getTime() }])).get(fridge)!;
    const { rows: readings } = await sql<{ at: string; temperature: string | null; error: boolean }>`
      select (extract(epoch from measured_at) * 1000)::bigint::text as at, temperature::text, error
        from measurements where equipment_id = ${fridge} and measured_at >= ${at(35)} and measured_at < ${at(65)} order by measured_at`.execute(db);
    expect(readings.length).toBe(5);
    expect(Array.from({ length: series.length }, (_, i) => [series.at[i], series.temperature[i], series.error[i]])).toEqual(
      readings.map((row) => [Number(row.at), row.error || row.temperature === null ? NaN : Number(row.temperature), row.error ? 1 : 0]),
    );
    expect([...series.temperature.slice(0, 4)]).toContain(-18.25);
  });

  it('reads the records in time order whatever order the database sent them in (docs/decisions/201)', () => {
    // Three 54-byte records whose first 8 bytes are the bucket's PostgreSQL timestamp (µs since 2000).
    const records = (micros: number[]) => {
      const view = new DataView(new ArrayBuffer(micros.length * 54));
      micros.forEach((us, i) => view.setBigInt64(i * 54, BigInt(us)));
      return view;
    };
    expect([...recordsInTimeOrder(records([600e6, 1200e6, 1800e6]), 3)]).toEqual([0, 1, 2]);
    expect([...recordsInTimeOrder(records([1800e6, 600e6, 1200e6]), 3)]).toEqual([1, 2, 0]);
    expect([...recordsInTimeOrder(records([-600e6, 600e6, -1200e6]), 3)]).toEqual([2, 0, 1]);
    expect([...recordsInTimeOrder(records([]), 0)]).toEqual([]);
  });

  it('prints the same table and summary as reading every reading, and the same CSV', async () => {
    const { fridge, freezer } = await month();
    for (const interval of [{ dataInterval: 10, manualTimes: [] }, { dataInterval: 30, manualTimes: [] }, { dataInterval: null, manualTimes: ['03:10', '08:15', '12:04'] }]) {
      const raw = await collectReport(db, source([fridge, freezer], interval), { rawReadings: true });
      const buckets = await collectReport(db, source([fridge, freezer], interval));
      expect(raw.sensors[0].stopWindows.length).toBeGreaterThan(0);
      expect(raw.sensors[0].summary!.minutesOutside).toBeGreaterThan(1000);
      if (interval.dataInterval === 10) expect(new Set(raw.sensors.flatMap((s) => [...s.table.kind]))).toEqual(new Set(Object.values(ROW_KIND)));
      for (const [i, sensor] of buckets.sensors.entries()) {
        expect(sensor.table).toEqual(raw.sensors[i].table);
        expect(sensor.summary).toEqual(raw.sensors[i].summary);
        // The chart: the same extremes and line breaks, from far fewer points.
        const values = (points: typeof sensor.points) => [...points.temperature].filter((value) => !Number.isNaN(value));
        expect(Math.min(...values(sensor.points))).toBe(Math.min(...values(raw.sensors[i].points)));
        expect(Math.max(...values(sensor.points))).toBe(Math.max(...values(raw.sensors[i].points)));
        const breaks = (points: typeof sensor.points) => points.temperature.filter(Number.isNaN).length;
        expect(breaks(sensor.points)).toBe(breaks(raw.sensors[i].points));
      }
      expect((await renderReportCsv(buckets)).equals(await renderReportCsv(raw))).toBe(true);
      // A CSV's document: no chart, so buckets with errors or cut by a window or a settings change are used too; the same file.
      const csv = await collectReport(db, { ...source([fridge, freezer], interval), outputFormat: 2 });
      for (const [i, sensor] of csv.sensors.entries()) {
        expect(sensor.table).toEqual(raw.sensors[i].table);
        expect(sensor.summary).toEqual(raw.sensors[i].summary);
        expect([sensor.points.length, sensor.hasReadings]).toEqual([0, true]);
      }
      expect((await renderReportCsv(csv)).equals(await renderReportCsv(raw))).toBe(true);
    }
    // Many buckets answer from their aggregates (not a comparison of raw with raw; the wave leaves the limits often).
    const until = new Date(OCTOBER.to.getTime() + 10 * 60_000);
    const own = (await reportBuckets(db, 'S001', [fridge], OCTOBER.from, until)).get(fridge)!;
    const raw = await collectReport(db, source([fridge], { dataInterval: 10, manualTimes: [] }), { rawReadings: true });
    const plan = planBuckets(own, { from: OCTOBER.from.getTime(), until: until.getTime() }, raw.sensors[0].table.at, raw.sensors[0].settings, [...raw.sensors[0].defrostWindows, ...raw.sensors[0].stopWindows]);
    expect(plan.use.reduce((a, b) => a + b, 0)).toBeGreaterThan(own.length / 3);
    expect(plan.raw.length).toBeGreaterThan(31);
    // Without a chart, only the buckets with a value outside the limits (outside excluded windows) and the period's ends are read raw.
    const csvPlan = planBuckets(own, { from: OCTOBER.from.getTime(), until: until.getTime() }, raw.sensors[0].table.at, raw.sensors[0].settings, [...raw.sensors[0].defrostWindows, ...raw.sensors[0].stopWindows], { chart: false });
    const rawBuckets = (p: typeof plan) => own.length - p.use.reduce((a, b) => a + b, 0);
    expect(rawBuckets(csvPlan)).toBeLessThan(rawBuckets(plan));
    expect(rawBuckets(csvPlan)).toBeGreaterThan(100);
  });

  it('a CSV of a month with only error readings says it has readings (no "no data" line), as reading every reading does', async () => {
    await createStore(db, 'S001', { store_name: '新宿店' });
    const fridge = await createSensor(db, 'S001', 'AA:BB:CC:00:00:01', { equipment_name: '冷蔵ケース1' });
    await insertMeasurementsWithBuckets(db, sql`insert into measurements (store_id, equipment_id, measured_at, temperature, error)
              select 'S001', ${fridge}, t, null, true from generate_series(${fromJapan(2026, 10, 3)}::timestamptz, ${fromJapan(2026, 10, 4)}::timestamptz, interval '1 minute') t
              returning store_id, equipment_id, measured_at, temperature, error`);
    const csv = await collectReport(db, { ...source([fridge], { dataInterval: 10, manualTimes: [] }), outputFormat: 2 });
    const raw = await collectReport(db, { ...source([fridge], { dataInterval: 10, manualTimes: [] }), outputFormat: 2 }, { rawReadings: true });
    expect(csv.sensors[0].hasReadings).toBe(true);
    expect(csv.sensors[0].table.kind.filter((kind) => kind === ROW_KIND.error)).toHaveLength(145);
    const file = await renderReportCsv(csv);
    expect(file.equals(await renderReportCsv(raw))).toBe(true);
    expect(file.toString('utf8')).not.toContain('この期間のデータはありません');
  });
});
