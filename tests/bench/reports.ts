// Report figures (issue 14):
// 1. the history tab / GET /v1/store_report/history with 10,000 reports in one store: p50/p95
//    of listReportHistory (what both run) over 50 runs, for a month page 1 and a deep page;
// 2. month reports: N stores × 20 sensors with a reading a minute for a whole month, each month
//    report made through the worker's own path (claim, collect, render, store), CSV then PDF,
//    reports/s and the night it would take for 20,000 stores at that rate (extrapolated).
//   npx tsx tests/bench/reports.ts [N]
import { sql } from 'kysely';
import { createDb } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { fromJapan } from '../../app/domain/japan-time';
import { listReportHistory } from '../../app/models/reports.server';
import type { Viewer } from '../../app/models/users.server';
import { makePendingReports } from '../../app/services/reports.server';
import { machine, percentile } from '../support/console';
import { prepareTestDatabase } from '../support/database';

const HISTORY = 10_000;
const STORES = Number(process.argv[2] ?? 3);
const SENSORS = 20;
const CHAIN = 20_000;

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
    await sql`
      insert into measurements (store_id, equipment_id, measured_at, temperature, error)
      select s.store_id, s.equipment_id, t, round((4 + 3 * sin(extract(epoch from t) / 5400.0 + s.equipment_id))::numeric, 1), false
      from sensors s, generate_series(${from}::timestamptz, ${to}::timestamptz - interval '1 minute', interval '1 minute') t`.execute(db);
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

    // 2. month reports through the worker's path
    const monthReports: Record<string, unknown> = {};
    for (const [format, label] of [[2, 'csv'], [1, 'pdf']] as const) {
      await sql`
        insert into report_history (store_id, setting_no, file_name, report_type, start_time, end_time, output_format, state, request)
        select s.store_id, null, '月次 ' || s.store_id, 1, ${from}, ${fromJapan(2026, 10, 31, 23, 50)}, ${format}, 'pending',
               jsonb_build_object('settingName', '月次温度記録', 'dataInterval', 10, 'manualTimes', '[]'::jsonb, 'option1', 1, 'option2', 1,
                 'equipmentIds', (select jsonb_agg(equipment_id) from sensors x where x.store_id = s.store_id), 'mailFlg', 0, 'mailAddresses', '[]'::jsonb, 'attachmentFlg', 0, 'createdByName', '管理者')
        from stores s`.execute(db);
      const rss0 = process.memoryUsage().rss;
      let peak = rss0;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
      const t = performance.now();
      const cpu0 = process.cpuUsage();
      const made = await makePendingReports(db, undefined, 10_000);
      const seconds = (performance.now() - t) / 1000;
      const cpu = process.cpuUsage(cpu0);
      clearInterval(timer);
      const sizes = await sql<{ avg: number }>`select avg(octet_length(content))::int as avg from report_history where output_format = ${format} and report_type = 1 and state = 'done'`.execute(db);
      const perSecond = made / seconds;
      monthReports[label] = {
        reports: made,
        seconds: Number(seconds.toFixed(2)),
        seconds_per_report: Number((seconds / made).toFixed(2)),
        // The worker's own CPU (the database's is not in it): on a loaded machine wall time is not the work.
        worker_cpu_seconds_per_report: Number(((cpu.user + cpu.system) / 1e6 / made).toFixed(2)),
        reports_per_second_one_worker: Number(perSecond.toFixed(2)),
        hours_for_20000_stores_one_worker: Number((CHAIN / perSecond / 3600).toFixed(1)),
        avg_file_bytes: sizes.rows[0].avg,
        peak_rss_mb: Math.round(peak / 2 ** 20),
      };
    }
    console.log(JSON.stringify({ machine: machine(), load_average: (await import('node:os')).loadavg().map((l) => Number(l.toFixed(1))), history_rows: HISTORY, stores: STORES, sensors_per_store: SENSORS, readings: STORES * SENSORS * 44_640, seed_seconds: Number(seedSeconds.toFixed(1)), history, month_reports: monthReports }, null, 2));
  } finally {
    await db.destroy();
    await database.release();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
