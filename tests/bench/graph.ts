// Temperature graph figures: one store with 20 sensors and a year of one-minute readings
// (20 × 525,600 = 10.5 M rows, generated in PostgreSQL with generate_series, time-major like
// live ingest, with their 10-minute buckets) in a fresh database. Times
// readGraphSeries() — what the graph page's loader runs for each panel — for 20 sensors and for
// one over a day, a week and a month, p50/p95 over 20 runs after warm-up; the CSV of one sensor
// for a month; and what keeping the buckets adds to an ingest batch of 500 readings.
//   npx tsx tests/bench/graph.ts            (DAYS=365 to change the history)
import { sql } from 'kysely';
import { createDb } from '../../app/db/db.server';
import { graphPeriod, type GraphUnit } from '../../app/domain/graph';
import { toCompactDate } from '../../app/domain/japan-time';
import { listGraphSensors, measurementCsvChunks, readGraphSeries, resolveCsvSensors } from '../../app/models/graph.server';
import { ensureMeasurementPartitions } from '../../app/models/measurement-partitions.server';
import type { Viewer } from '../../app/models/users.server';
import { BUCKET_INPUT, insertMeasurementsWithBuckets } from '../../app/models/measurement-buckets.server';
import { machine, percentile } from '../support/console';
import { type BenchDatabase, runBench } from '../support/bench';

const DAYS = Number(process.env.DAYS ?? 365);
const SENSORS = 20;
const RUNS = 20;
const WARM_UP = 3;
const STORE = 'B0001';
const MINUTE_MS = 60_000;

async function main({ db }: BenchDatabase) {
  const now = new Date();
  const end = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
  const start = new Date(end.getTime() - DAYS * 1440 * MINUTE_MS);
  await ensureMeasurementPartitions(db, start, end);
  const ids = await seedStore(db);
  const t0 = performance.now();
  await seedReadings(db, ids, start, end);
  const seedSeconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  await sql`vacuum analyze measurements`.execute(db);
  await sql`vacuum analyze measurement_buckets`.execute(db);
  const vacuumSeconds = (performance.now() - t1) / 1000;
  const { rows: counted } = await sql<{ n: number }>`select count(*)::int as n from measurements`.execute(db);
  const { rows: sizes } = await sql<{ heap: string; indexes: string }>`
    select pg_size_pretty(sum(pg_table_size(c.oid))) as heap, pg_size_pretty(sum(pg_indexes_size(c.oid))) as indexes
    from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'measurements'::regclass`.execute(db);
  const { rows: bucketSizes } = await sql<{ heap: string; indexes: string; n: number }>`
    select pg_size_pretty(sum(pg_table_size(c.oid))) as heap, pg_size_pretty(sum(pg_indexes_size(c.oid))) as indexes,
           (select count(*)::int from measurement_buckets) as n
    from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'measurement_buckets'::regclass`.execute(db);

  const viewer: Viewer = { userId: 1, loginId: 'admin', userName: '管理者', authority: 1, language: 'JP', mailaddress1: null };
  const sensors = await listGraphSensors(db, viewer, STORE);
  if (!sensors || sensors.length !== SENSORS) throw new Error('the bench store is not visible');
  const all = sensors.map((s) => s.equipmentId);
  // The last complete period before today, so every case reads full data.
  const yesterday = toCompactDate(new Date(end.getTime() - 1440 * MINUTE_MS));
  const lastWeek = toCompactDate(new Date(end.getTime() - 7 * 1440 * MINUTE_MS));
  const lastMonth = toCompactDate(new Date(end.getTime() - 32 * 1440 * MINUTE_MS));
  const cases: [string, GraphUnit, string, number[]][] = [
    ['day, 20 sensors (144 buckets each)', 'day', yesterday, all],
    ['day, 1 sensor', 'day', yesterday, all.slice(0, 1)],
    ['week, 20 sensors (336 buckets each)', 'week', lastWeek, all],
    ['month, 20 sensors (≤744 buckets each)', 'month', lastMonth, all],
    ['month, 1 sensor', 'month', lastMonth, all.slice(0, 1)],
  ];
  const results: Record<string, { p50_ms: number; p95_ms: number; node_cpu_p50_ms: number; readings: number; points: number }> = {};
  for (const [name, unit, date, equipmentIds] of cases) {
    const period = graphPeriod(unit, date);
    const times: number[] = [];
    const cpu: number[] = [];
    let points = 0;
    for (let run = 0; run < WARM_UP + RUNS; run++) {
      const t = performance.now();
      const c = process.cpuUsage();
      const series = await readGraphSeries(db, viewer, { storeId: STORE, equipmentIds, period });
      if (run >= WARM_UP) times.push(performance.now() - t);
      // This process's CPU time (the driver's row parsing and the series), fair on a loaded machine.
      const used = process.cpuUsage(c);
      if (run >= WARM_UP) cpu.push((used.user + used.system) / 1000);
      points = series.reduce((sum, s) => sum + s.points.length, 0);
    }
    cpu.sort((a, b) => a - b);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from measurements
      where store_id = ${STORE} and equipment_id = any(${equipmentIds}::int[]) and measured_at >= ${period.since} and measured_at < ${period.until}`.execute(db);
    times.sort((a, b) => a - b);
    results[name] = { p50_ms: round(percentile(times, 0.5)), p95_ms: round(percentile(times, 0.95)), node_cpu_p50_ms: round(percentile(cpu, 0.5)), readings: rows[0].n, points };
  }
  const csv = await timeCsv(db, viewer, all[0], graphPeriod('month', lastMonth));
  const buckets = await bucketCost(db, all, end);
  const plan = await explainMonth(db, all, graphPeriod('month', lastMonth));
  console.log(
    JSON.stringify(
      {
        machine: machine(),
        rows: counted[0].n,
        sensors: SENSORS,
        days: DAYS,
        measurements: { heap: sizes[0].heap, indexes: sizes[0].indexes },
        measurement_buckets: { rows: bucketSizes[0].n, heap: bucketSizes[0].heap, indexes: bucketSizes[0].indexes },
        seed_seconds: round(seedSeconds),
        vacuum_analyze_seconds: round(vacuumSeconds),
        runs: RUNS,
        results,
        csv_one_sensor_month: csv,
        ingest_batch_500_rows: buckets,
        month_plan: plan,
      },
      null,
      2,
    ),
  );
}


const round = (value: number) => Number(value.toFixed(1));

async function seedStore(db: ReturnType<typeof createDb>): Promise<number[]> {
  await sql`
    insert into companies (company_id, company_name) values ('BC1', 'ベンチ商事');
    insert into storegroups (storegroup_id, company_id, storegroup_name) values ('G1', 'BC1', 'ベンチエリア');
    insert into stores (store_id, store_no, store_name, company_id, storegroup_id, prefecture_id, address, opening_date, working_state, store_status)
      values ('${sql.raw(STORE)}', '00000001', 'ベンチ店', 'BC1', 'G1', 13, '東京都', '2024-01-01', 1, 2);
    insert into usergroups (usergroup_name, usergroup_authority) values ('管理者', 1);
    insert into users (login_id, user_name) values ('admin', '管理者');
    insert into user_usergroups values (1, 1);
  `.execute(db);
  const { rows } = await sql<{ equipment_id: number }>`
    insert into sensors (store_id, equipment_name, serial_no, icon_kind, location_no, lower_limit, upper_limit, def_time)
    select ${STORE}, 'センサ' || s, 'AA:BB:CC:DD:EE:' || lpad(to_hex(s), 2, '0'), 1 + s % 22, s,
           case when s % 4 = 0 then -25 when s % 4 = 3 then 55 else 0 end,
           case when s % 4 = 0 then -15 when s % 4 = 3 then 60 else 10 end,
           '[{"start":"02:00","end":"02:30"},{"start":"14:00","end":"14:30"}]'
    from generate_series(1, ${SENSORS}) s
    returning equipment_id`.execute(db);
  return rows.map((row) => row.equipment_id);
}

/**
 * A year of readings, month by month on two connections (the machines have 2 cores). Within
 * a month the rows go in minute by minute across the sensors, as a gateway uploads them, so
 * the heap is laid out like live data rather than sorted by sensor.
 */
async function seedReadings(db: ReturnType<typeof createDb>, ids: number[], start: Date, end: Date) {
  const chunks: [Date, Date][] = [];
  for (let from = start; from < end; ) {
    const to = new Date(Math.min(end.getTime(), from.getTime() + 15 * 1440 * MINUTE_MS));
    chunks.push([from, to]);
    from = to;
  }
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < chunks.length) {
        const [from, to] = chunks[next++];
        await insertMeasurementsWithBuckets(db, sql`
          insert into measurements (store_id, equipment_id, measured_at, temperature, error, battery, receive_sensitivity, received_at)
          select ${STORE}, r.id, r.t,
                 case when r.err then null else round((r.base + 2 * sin(extract(epoch from r.t) / 13751) + random() * 0.6)::numeric, 1)::real end,
                 r.err, 90, -60, r.t + interval '12 seconds'
          from (
            -- About one error reading in a thousand, spread over the sensors.
            select t, e.id, e.base, (extract(epoch from t)::bigint / 60 * 7919 + e.id * 104729) % 1000 = 0 as err
            from generate_series(${from}::timestamptz, ${to}::timestamptz - interval '1 minute', interval '1 minute') t
            cross join (
              select id, (array[-20, 4, 4, 55])[1 + (n % 4)] as base from unnest(${ids}::int[]) with ordinality as u(id, n)
            ) e
          ) r
          returning ${sql.raw(BUCKET_INPUT.join(', '))}`);
      }
    }),
  );
}

async function timeCsv(db: ReturnType<typeof createDb>, viewer: Viewer, equipmentId: number, period: ReturnType<typeof graphPeriod>) {
  const sensors = await resolveCsvSensors(db, viewer, [equipmentId]);
  if (!sensors) throw new Error('no csv sensor');
  const t = performance.now();
  let bytes = 0;
  let lines = 0;
  for await (const chunk of measurementCsvChunks(db, viewer, sensors, { since: period.since, until: new Date(period.until.getTime() - 1) })) {
    bytes += Buffer.byteLength(chunk);
    lines += chunk.split('\r\n').length - 1;
  }
  return { ms: round(performance.now() - t), rows: lines - 1, bytes };
}

/**
 * What keeping the buckets costs ingest: batches of 500 readings (20 sensors × 25 minutes, a
 * gateway's upload) inserted as ingest does, with their buckets merged in the same statement
 * (measurement-buckets.server.ts) and without, p50 over 40 each, in three interleaved rounds (median).
 */
async function bucketCost(db: ReturnType<typeof createDb>, ids: number[], end: Date) {
  let cursor = end.getTime() + 60 * MINUTE_MS;
  const batch = async (withBuckets: boolean) => {
    const from = new Date(cursor);
    cursor += 25 * MINUTE_MS;
    const insert = sql`
      insert into measurements (store_id, equipment_id, measured_at, temperature, error, battery, receive_sensitivity, received_at)
      select ${STORE}, e.id, t, 4.5, false, 90, -60, now()
      from generate_series(${from}::timestamptz, ${from}::timestamptz + interval '24 minutes', interval '1 minute') t, unnest(${ids}::int[]) e(id)
      on conflict do nothing`;
    const t = performance.now();
    if (withBuckets) await insertMeasurementsWithBuckets(db, sql`${insert} returning ${sql.raw(BUCKET_INPUT.join(', '))}`);
    else await insert.execute(db);
    return performance.now() - t;
  };
  const run = async (withBuckets: boolean) => {
    const times: number[] = [];
    for (let i = 0; i < 45; i++) {
      const ms = await batch(withBuckets);
      if (i >= 5) times.push(ms);
    }
    times.sort((a, b) => a - b);
    return round(percentile(times, 0.5));
  };
  // Three rounds of the two, interleaved, so that a change of the machine's load hits both alike; the median round.
  const rounds: Record<'with' | 'without', number[]> = { with: [], without: [] };
  for (let round = 0; round < 3; round++) {
    rounds.with.push(await run(true));
    rounds.without.push(await run(false));
  }
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[1];
  return { p50_ms_with_buckets: median(rounds.with), p50_ms_without: median(rounds.without) };
}

async function explainMonth(db: ReturnType<typeof createDb>, ids: number[], period: ReturnType<typeof graphPeriod>) {
  const { rows } = await sql<{ 'QUERY PLAN': string }>`
    explain (analyze, buffers, costs off, timing off)
    select b.equipment_id, date_bin('60 minutes', b.bucket + interval '30 minutes', ${period.since}::timestamptz), round((sum(b.temperature_sum) / sum(b.temperature_count))::numeric, 1)
    from measurement_buckets b
    where b.store_id = ${STORE} and b.equipment_id = any(${ids}::int[]) and b.bucket >= ${new Date(period.since.getTime() - 30 * MINUTE_MS)} and b.bucket < ${new Date(period.until.getTime() - 30 * MINUTE_MS)}
    group by 1, 2`.execute(db);
  return rows.map((row) => row['QUERY PLAN']);
}

runBench('onreco_bench_graph', main);
