// Retention figures (docs/decisions/188-retention.md): what it costs to remove one month of readings
// of a store with 20 sensors at one reading a minute (20 × 44,640 = 892,800 rows), by the worker's
// way (detach + drop of the month partition, dropMonthsBefore) and by the way the issue rules out
// (a DELETE of the readings, which also recounts their buckets: deleteMeasurements). Also the wait of
// one ingest-sized insert into the current month while each runs. A fresh database; two old months
// (2010-01 dropped, 2010-02 deleted), generated in PostgreSQL with their buckets.
//   npx tsx tests/bench/retention.ts        (SENSORS=20 DAYS=31 to change the month)
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Db } from '../../app/db/db.server';
import { fromJapan } from '../../app/domain/japan-time';
import { dropMonthsBefore, ensureMeasurementPartitions } from '../../app/models/measurement-partitions.server';
import { deleteMeasurements, insertMeasurementRows, insertMeasurementsWithBuckets } from '../../app/models/measurement-buckets.server';
import { createSensor, createStore } from '../fixtures/chain';
import { machine } from '../support/console';
import { type BenchDatabase, runBench } from '../support/bench';

const SENSORS = Number(process.env.SENSORS ?? 20);
const DAYS = Number(process.env.DAYS ?? 31);
const STORE = 'R0001';

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const ms = (from: number) => Math.round((performance.now() - from) * 10) / 10;

async function fillMonth(db: Db, ids: number[], year: number, month: number): Promise<void> {
  const from = fromJapan(year, month, 1);
  const to = new Date(from.getTime() + DAYS * 86_400_000);
  await insertMeasurementsWithBuckets(db, sql`
    insert into measurements (store_id, equipment_id, measured_at, temperature, error, battery, receive_sensitivity)
    select ${STORE}, e, t, 4 + (extract(epoch from t)::bigint % 97) / 20.0, false, 90, -60
    from generate_series(${from}::timestamptz, ${to}::timestamptz - interval '1 minute', interval '1 minute') t
    cross join unnest(${ids}::int[]) e
    returning store_id, equipment_id, measured_at, temperature, error`);
}

/** Inserts one reading into the current month every 100 ms while `work` runs; the longest wait. */
async function ingestWaitDuring(db: Db, equipmentId: number, work: () => Promise<unknown>): Promise<{ work_ms: number; ingest_max_ms: number; inserts: number }> {
  let running = true;
  let worst = 0;
  let inserts = 0;
  const ingest = (async () => {
    while (running) {
      const t = performance.now();
      await insertMeasurementRows(db, [{ store_id: STORE, equipment_id: equipmentId, measured_at: new Date(Date.now() - 1000 + inserts), temperature: 4, error: false }]);
      worst = Math.max(worst, performance.now() - t);
      inserts += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const t0 = performance.now();
  await work();
  const workMs = ms(t0);
  running = false;
  await ingest;
  return { work_ms: workMs, ingest_max_ms: Math.round(worst * 10) / 10, inserts };
}

async function main({ db }: BenchDatabase) {
  await ensureMeasurementPartitions(db, fromJapan(2010, 1, 1), fromJapan(2010, 2, 1));
  await ensureMeasurementPartitions(db, new Date(), new Date());
  await createStore(db, STORE);
  const ids: number[] = [];
  for (let i = 0; i < SENSORS; i++) ids.push(await createSensor(db, STORE, `AA:BB:RE:00:00:${i.toString(16).padStart(2, '0')}`));
  const t0 = performance.now();
  await fillMonth(db, ids, 2010, 1);
  await fillMonth(db, ids, 2010, 2);
  const seedMs = ms(t0);
  await sql`vacuum analyze measurements`.execute(db);
  const size = await sql<{ rows: number; bytes: number }>`select count(*)::int as rows, pg_total_relation_size('measurements_201001') as bytes from measurements_201001`.execute(db);

  const loadBefore = loadavg();
  const drop = await ingestWaitDuring(db, ids[0], () => dropMonthsBefore(db, 'measurements', 'measured_at', fromJapan(2010, 2, 1)));
  const del = await ingestWaitDuring(db, ids[0], () => deleteMeasurements(db, { from: fromJapan(2010, 2, 1), until: fromJapan(2010, 3, 1) }));
  const buckets = await sql<{ n: number }>`select count(*)::int as n from measurement_buckets where bucket < ${fromJapan(2010, 2, 1)}`.execute(db);
  console.log(
    JSON.stringify(
      {
        machine: machine(),
        month: { sensors: SENSORS, days: DAYS, rows: size.rows[0].rows, partition_bytes: Number(size.rows[0].bytes) },
        seed_ms: seedMs,
        detach_and_drop: drop,
        delete_rows: del,
        buckets_left_of_dropped_month: buckets.rows[0].n,
        loadavg: { before: loadBefore, after: loadavg() },
      },
      null,
      2,
    ),
  );
}

runBench('onreco_bench_retention', main);
