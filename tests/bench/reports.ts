// Report figures (issue 14):
// 1. the history tab / GET /v1/store_report/history with 10,000 reports in one store: p50/p95
//    of listReportHistory (what both run) over 50 runs, for a month page 1 and a deep page;
// 2. month CSV collection of each store reading every reading (before) and from the buckets (after), byte-compared;
// 3. month reports: N stores × 20 sensors with a reading a minute for a whole month, each month
//    report made through the worker's own path (claim, collect, render, store), CSV then PDF,
//    reports/s and the night it would take for 20,000 stores at that rate (extrapolated);
// 4. NIGHT=1000: that many month reports of each format made by WORKERS (2) worker processes of
//    the reports lane, as `npm start` runs them on 2 cores: reports/s from the first file to the
//    last (the workers' start left out), and the 20,000 stores' night at that rate; over the same
//    span the CPU of the workers and of the database per report, and the rate on 2 idle cores it
//    gives (2 / CPU a report: a loaded machine slows the wall rate, much less the CPU), and each
//    worker's peak RSS.
//   npx tsx tests/bench/reports.ts [N]        (NIGHT=1000 WORKERS=2 FORMATS=csv,pdf)
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { createDb } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { fromJapan } from '../../app/domain/japan-time';
import { insertMeasurementsWithBuckets } from '../../app/models/measurement-buckets.server';
import { listReportHistory } from '../../app/models/report-history.server';
import type { Viewer } from '../../app/models/users.server';
import { collectReport } from '../../app/reports/collect.server';
import { renderReportCsv } from '../../app/reports/csv.server';
import { makePendingReports } from '../../app/services/reports.server';
import { machine, percentile } from '../support/console';
import { prepareTestDatabase } from '../support/database';
import { startWorker, stopProcess } from '../support/processes';
import { sampleTree } from './chain/proc';
import { postmasterPid } from './chain/rig';

const HISTORY = 10_000;
const STORES = Number(process.argv[2] ?? 3);
const SENSORS = 20;
const CHAIN = 20_000;
const csvBefore = new Map<string, Buffer>();
const NIGHT = Number(process.env.NIGHT ?? 0);
const WORKERS = Number(process.env.WORKERS ?? 2);

/** CPU seconds used so far by processes and what runs under them (tests/bench/chain/proc.ts). */
const processesCpu = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + sampleTree(pid).cpuSeconds, 0);

/** A process's peak resident memory so far, in MiB (VmHWM in /proc/PID/status). */
const peakRssMb = (pid: number) => Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);

/** CPU seconds used so far by the bench database's server: its postmaster, every process under it, and those that ended. */
async function databaseCpu(db: ReturnType<typeof createDb>): Promise<number> {
  const postmaster = await postmasterPid(db);
  if (!postmaster) throw new Error('the PostgreSQL server is not on this machine: its CPU cannot be read');
  return processesCpu([postmaster]);
}

async function databaseCpuSince(db: ReturnType<typeof createDb>, before: number): Promise<number> {
  return (await databaseCpu(db)) - before;
}

/** `count` pending month reports (October 2026, both options, every sensor) of `format`, round the stores. */
async function insertMonthJobs(db: ReturnType<typeof createDb>, format: 1 | 2, count: number): Promise<void> {
  await sql`
    insert into report_history (store_id, setting_no, file_name, report_type, start_time, end_time, output_format, state, request)
    select s.store_id, null, '月次 ' || s.store_id, 1, ${fromJapan(2026, 10, 1)}, ${fromJapan(2026, 10, 31, 23, 50)}, ${format}, 'pending',
           jsonb_build_object('settingName', '月次温度記録', 'dataInterval', 10, 'manualTimes', '[]'::jsonb, 'option1', 1, 'option2', 1,
             'equipmentIds', (select jsonb_agg(equipment_id) from sensors x where x.store_id = s.store_id), 'mailFlg', 0, 'mailAddresses', '[]'::jsonb, 'attachmentFlg', 0, 'createdByName', '管理者')
    from generate_series(0, ${count - 1}) n join stores s on s.store_no = lpad((1 + n % ${STORES})::text, 8, '0')`.execute(db);
}

/** NIGHT month reports of `format` made by WORKERS worker processes; the rate from the first file to the last. */
async function nightOfReports(db: ReturnType<typeof createDb>, url: string, format: 1 | 2) {
  const before = await sql<{ last: number }>`select coalesce(max(history_no), 0)::int as last from report_history`.execute(db);
  await insertMonthJobs(db, format, NIGHT);
  const workers = Array.from({ length: WORKERS }, () => startWorker({ DATABASE_URL: url }, 'reports'));
  try {
    const counts = () =>
      sql<{ pending: number; done: number; failed: number; first: Date | null; last: Date | null }>`
        select count(*) filter (where state = 'pending')::int as pending, count(*) filter (where state = 'done')::int as done,
               count(*) filter (where state = 'failed')::int as failed, min(finished_at) as first, max(finished_at) as last
          from report_history where history_no > ${before.rows[0].last}`.execute(db);
    const pids = workers.map((worker) => worker.pid!);
    let now = (await counts()).rows[0];
    // CPU from the first report done on (the workers' start left out, as for the rate), workers and database apart.
    let cpuFrom: { done: number; workers: number; database: number } | null = null;
    while (now.pending > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      now = (await counts()).rows[0];
      if (!cpuFrom && now.done > 0) cpuFrom = { done: now.done, workers: processesCpu(pids), database: await databaseCpu(db) };
    }
    const workerCpu = processesCpu(pids) - (cpuFrom?.workers ?? 0);
    const databaseCpuUsed = cpuFrom ? await databaseCpuSince(db, cpuFrom.database) : 0;
    const measured = now.done - (cpuFrom?.done ?? 0);
    const seconds = (now.last!.getTime() - now.first!.getTime()) / 1000;
    const perSecond = (now.done - 1) / seconds;
    const cpuPerReport = (workerCpu + databaseCpuUsed) / measured;
    return {
      reports: now.done, failed: now.failed, workers: WORKERS, seconds_first_to_last: Number(seconds.toFixed(1)), reports_per_second: Number(perSecond.toFixed(2)), hours_for_20000_stores: Number((CHAIN / perSecond / 3600).toFixed(2)),
      cpu_reports: measured, worker_cpu_seconds_per_report: Number((workerCpu / measured).toFixed(3)), database_cpu_seconds_per_report: Number((databaseCpuUsed / measured).toFixed(3)),
      reports_per_second_two_idle_cores: Number((2 / cpuPerReport).toFixed(2)),
      // Each worker process's peak RSS over the whole night (the issue's ≤ 300 MB is the worker's).
      worker_peak_rss_mb: pids.map(peakRssMb),
    };
  } finally {
    await Promise.all(workers.map((worker) => stopProcess(worker)));
  }
}

async function main() {
  const database = await prepareTestDatabase('onreco_bench_reports');
  const db = createDb(database.url, 4);
  try {
    await migrateToLatest(db);
    const from = fromJapan(2026, 10, 1);
    const to = fromJapan(2026, 11, 1);
    await sql`
      insert into companies values ('BC1', 'ベンチ商事', now(), now());
      insert into storegroups values ('G1', 'BC1', 'エリア', now(), now());
      insert into stores (store_id, store_no, store_name, company_id, storegroup_id, prefecture_id, address, opening_date, working_state, gateway_info)
        select 'S' || i, lpad(i::text, 8, '0'), 'ベンチ店 ' || i, 'BC1', 'G1', 13, '住所', '2024-01-01', 1, 'GW' || i from generate_series(1, ${sql.lit(STORES)}) i;
      insert into sensors (store_id, equipment_name, serial_no, icon_kind, lower_limit, upper_limit, def_time)
        select 'S' || i, '冷蔵ケース' || s, 'AA:BB:CC:DD:' || lpad(to_hex(i), 2, '0') || ':' || lpad(to_hex(s), 2, '0'), 1, 0, 10, '[{"start":"03:00","end":"03:30"}]'
        from generate_series(1, ${sql.lit(STORES)}) i, generate_series(1, ${sql.lit(SENSORS)}) s;
      insert into usergroups (usergroup_name, usergroup_authority) values ('管理者', 1);
      insert into users (login_id, user_name) values ('admin', '管理者');
      insert into user_usergroups values (1, 1);
      insert into report_history (store_id, setting_no, file_name, report_type, start_time, end_time, output_format, state, content_type, content, create_datetime)
        select 'S1', null, '日次温度記録 ' || g, 3, now(), now(), 2, 'done', 'text/csv', convert_to('日時', 'UTF8'),
               ${sql.lit(fromJapan(2026, 1, 1).toISOString())}::timestamptz + (g * interval '45 minutes')
        from generate_series(1, ${sql.lit(HISTORY)}) g;
    `.execute(db);
    const t0 = performance.now();
    await insertMeasurementsWithBuckets(db, sql`
      insert into measurements (store_id, equipment_id, measured_at, temperature, error)
      select s.store_id, s.equipment_id, t, round((4 + 3 * sin(extract(epoch from t) / 5400.0 + s.equipment_id))::numeric, 1), false
      from sensors s, generate_series(${from}::timestamptz, ${to}::timestamptz - interval '1 minute', interval '1 minute') t
      returning store_id, equipment_id, measured_at, temperature, error`);
    await sql`analyze`.execute(db);
    const seedSeconds = (performance.now() - t0) / 1000;

    // 1. the history tab
    const admin: Viewer = { userId: 1, loginId: 'admin', userName: '管理者', authority: 1, language: 'JP', mailaddress1: null };
    const history: Record<string, { p50_ms: number; p95_ms: number; total: number }> = {};
    const monthCases: [string, Date, Date, number][] = [
      ['a month (Mar 2026), page 1', fromJapan(2026, 3, 1), fromJapan(2026, 4, 1), 1],
      ['a month (Mar 2026), last page', fromJapan(2026, 3, 1), fromJapan(2026, 4, 1), 100],
      ['all 10,000, page 1', fromJapan(2025, 1, 1), fromJapan(2027, 1, 1), 1],
      ['all 10,000, page 1000', fromJapan(2025, 1, 1), fromJapan(2027, 1, 1), 1000],
    ];
    for (const [name, since, until, page] of monthCases) {
      const times: number[] = [];
      let total = 0;
      for (let run = 0; run < 55; run += 1) {
        const t = performance.now();
        const result = await listReportHistory(db, admin, { storeId: 'S1', since, until, page, pageSize: 10 });
        if (run >= 5) times.push(performance.now() - t);
        total = result!.total;
      }
      times.sort((a, b) => a - b);
      history[name] = { p50_ms: Number(percentile(times, 0.5).toFixed(2)), p95_ms: Number(percentile(times, 0.95).toFixed(2)), total };
    }

    // 2. collection alone, every reading (before, docs/decisions/148) and from the buckets (after, 149),
    //    store by store, CPU of this process; the CSVs of both must be byte-identical.
    const collection: Record<string, unknown> = {};
    for (const rawReadings of [true, false]) {
      const cpu0 = process.cpuUsage();
      const dbCpu0 = await databaseCpu(db);
      const t = performance.now();
      let identical = true;
      for (let i = 1; i <= STORES; i++) {
        const { rows: ids } = await sql<{ id: number }>`select equipment_id as id from sensors where store_id = ${`S${i}`} order by equipment_id`.execute(db);
        const source = {
          storeId: `S${i}`, fileName: '月次', reportType: 1, outputFormat: 2, startTime: from, endTime: fromJapan(2026, 10, 31, 23, 50), createdAt: from,
          request: { settingName: '月次温度記録', dataInterval: 10, manualTimes: [], option1: 1, option2: 1, equipmentIds: ids.map((r) => r.id), mailFlg: 0, mailAddresses: [], attachmentFlg: 0, createdByName: '管理者' },
        };
        const doc = await collectReport(db, source, { rawReadings });
        const csv = await renderReportCsv(doc);
        if (rawReadings) csvBefore.set(source.storeId, csv);
        else identical &&= csv.equals(csvBefore.get(source.storeId)!);
      }
      const cpu = process.cpuUsage(cpu0);
      const dbCpu = await databaseCpuSince(db, dbCpu0);
      collection[rawReadings ? 'every_reading' : 'buckets'] = {
        seconds_per_report: Number(((performance.now() - t) / 1000 / STORES).toFixed(3)),
        worker_cpu_seconds_per_report: Number(((cpu.user + cpu.system) / 1e6 / STORES).toFixed(3)),
        database_cpu_seconds_per_report: Number((dbCpu / STORES).toFixed(3)),
        ...(rawReadings ? {} : { csv_identical_to_every_reading: identical }),
      };
    }

    // 3. month reports through the worker's path
    const monthReports: Record<string, unknown> = {};
    // FORMATS=pdf measures the PDF alone (the worker's RSS for PDFs without a CSV before them).
    const formats = (process.env.FORMATS ?? 'csv,pdf').split(',');
    for (const [format, label] of ([[2, 'csv'], [1, 'pdf']] as const).filter(([, name]) => formats.includes(name))) {
      await insertMonthJobs(db, format, STORES);
      const rss0 = process.memoryUsage().rss;
      let peak = rss0;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
      const t = performance.now();
      const cpu0 = process.cpuUsage();
      const dbCpu0 = await databaseCpu(db);
      const made = await makePendingReports(db, undefined, 10_000);
      const seconds = (performance.now() - t) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const dbCpu = await databaseCpuSince(db, dbCpu0);
      clearInterval(timer);
      const sizes = await sql<{ avg: number }>`select avg(octet_length(content))::int as avg from report_history where output_format = ${format} and report_type = 1 and state = 'done'`.execute(db);
      const perSecond = made / seconds;
      // The first store's file, to byte-compare before/after a collection change (CSV_OUT=path).
      const first = await sql<{ content: Buffer }>`select content from report_history where store_id = 'S1' and output_format = ${format} and report_type = 1 and state = 'done'`.execute(db);
      const content = first.rows[0].content;
      if (process.env.CSV_OUT && label === 'csv') (await import('node:fs')).writeFileSync(process.env.CSV_OUT, content);
      monthReports[label] = {
        reports: made,
        seconds: Number(seconds.toFixed(2)),
        seconds_per_report: Number((seconds / made).toFixed(2)),
        // The worker's own CPU (the database's is not in it): on a loaded machine wall time is not the work.
        worker_cpu_seconds_per_report: Number(((cpu.user + cpu.system) / 1e6 / made).toFixed(2)),
        database_cpu_seconds_per_report: Number((dbCpu / made).toFixed(2)),
        // Both cores busy with nothing else: 2 CPU seconds a second over the worker's and the database's CPU a report.
        reports_per_second_two_idle_cores: Number((2 / ((cpu.user + cpu.system) / 1e6 / made + dbCpu / made)).toFixed(2)),
        reports_per_second_one_worker: Number(perSecond.toFixed(2)),
        hours_for_20000_stores_one_worker: Number((CHAIN / perSecond / 3600).toFixed(1)),
        avg_file_bytes: sizes.rows[0].avg,
        first_file_sha256: (await import('node:crypto')).createHash('sha256').update(content).digest('hex').slice(0, 16),
        peak_rss_mb: Math.round(peak / 2 ** 20),
      };
    }
    // 4. a night's reports through the worker processes
    const night: Record<string, unknown> = {};
    if (NIGHT > 0) for (const [format, label] of ([[2, 'csv'], [1, 'pdf']] as const).filter(([, name]) => formats.includes(name))) night[label] = await nightOfReports(db, database.url, format);
    console.log(JSON.stringify({ machine: machine(), load_average: (await import('node:os')).loadavg().map((l) => Number(l.toFixed(1))), history_rows: HISTORY, stores: STORES, sensors_per_store: SENSORS, readings: STORES * SENSORS * 44_640, seed_seconds: Number(seedSeconds.toFixed(1)), history, month_csv_collection: collection, month_reports: monthReports, ...(NIGHT > 0 ? { night_through_workers: night } : {}), load_average_after: (await import('node:os')).loadavg().map((l) => Number(l.toFixed(1))) }, null, 2));
  } finally {
    await db.destroy();
    await database.release();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
