// ゲートウェイ一覧 figures (issue 16: p95 ≤ 50 ms at 20,000 stores): 20,000 stores with a gateway and
// a health report each (5 % offline, 3 % buffer over 50 %, 46 % weak or unknown signal), plus
// 30 days of history for 200 of them. Times listGateways() — what the /gateways loader runs — for
// an administrator over the sorts, the filters and their combinations (docs/decisions/165), p50/p95
// over 50 runs after 5 warm-up runs.
//   npx tsx tests/bench/gateway-list.ts
import { sql } from 'kysely';
import { type GatewayListQuery, GatewayListQuerySchema } from '../../app/domain/gateway-health';
import { listGateways, refreshGatewayListFlags } from '../../app/models/gateway-health.server';
import type { Viewer } from '../../app/models/users.server';
import { machine, percentile } from '../support/console';
import { type BenchDatabase, runBench } from '../support/bench';

const STORES = 20_000;

async function main({ db }: BenchDatabase) {
  const t0 = performance.now();
  await sql`
    insert into companies values ('BC1', 'ベンチ商事', now(), now());
    insert into storegroups select 'G' || g, 'BC1', 'エリア' || g, now(), now() from generate_series(1, 200) g;
    insert into stores (store_id, store_no, store_name, company_id, storegroup_id, prefecture_id, address, opening_date, working_state, store_status, gateway_info, gateway_down, last_gateway_contact_at, receive_sensitivity)
      select 'S' || i, lpad(i::text, 8, '0'), 'ベンチ店 ' || i, 'BC1', 'G' || (1 + i % 200), 1 + i % 47, '住所', '2024-01-01', 1, 2, 'GW' || i,
             i % 20 = 0, now() - case when i % 20 = 0 then interval '3 hours' else interval '1 minute' end, -60 - i % 40
      from generate_series(1, ${sql.lit(STORES)}) i;
    insert into gateway_health (store_id, reported_at, received_at, version, uptime_seconds, buffer_depth, buffer_capacity, oldest_unsent_at,
                                disk_free_bytes, disk_total_bytes, ble_adapter, sensors_heard, lte_rssi, dropped_total, buffer_alarm,
                                buffer_over_half, weak_signal)
      select 'S' || i, now() - interval '2 minutes', now() - interval '2 minutes', case when i % 4 = 0 then '0.1.9' else '0.2.0' end, 86400 + i,
             case when i % 33 = 0 then 1100000 + i else i % 500 end, 2000000, now() - (i % 600) * interval '1 minute',
             12000000000 - i, 31000000000, 'on', 20, case when i % 6 = 2 then null else -60 - i % 40 end, 0, false,
             false, false
      from generate_series(1, ${sql.lit(STORES)}) i;
    insert into gateway_health_history
      select store_id, received_at - n * interval '5 minutes', reported_at - n * interval '5 minutes', version, uptime_seconds, buffer_depth, buffer_capacity,
             oldest_unsent_at, disk_free_bytes, disk_total_bytes, ble_adapter, sensors_heard, lte_rssi, dropped_total
      from gateway_health, generate_series(0, 8639) n where store_id in (select 'S' || i from generate_series(1, 200) i);
    insert into usergroups (usergroup_name, usergroup_authority) values ('管理者', 1);
    insert into users (login_id, user_name) values ('admin', '管理者');
    insert into user_usergroups values (1, 1);
  `.execute(db);
  await refreshGatewayListFlags(db);
  await sql`analyze`.execute(db);
  const seedSeconds = (performance.now() - t0) / 1000;
  const admin: Viewer = { userId: 1, loginId: 'admin', userName: '管理者', authority: 1, language: 'JP', mailaddress1: null };
  const q = (extra: Record<string, string>): GatewayListQuery => GatewayListQuerySchema.parse(extra);
  const cases: [string, GatewayListQuery][] = [
    ['page 1 by store number', q({})],
    ['page 1000 by store number', q({ page_no: '1000' })],
    ['sorted by store name, desc', q({ sort: 'store_name', order: 'desc' })],
    ['sorted by version', q({ sort: 'version' })],
    ['sorted by buffer, desc', q({ sort: 'buffer', order: 'desc' })],
    ['sorted by LTE', q({ sort: 'lte' })],
    ['sorted by last contact, desc', q({ sort: 'last_contact', order: 'desc' })],
    ['sorted by oldest unsent', q({ sort: 'oldest_unsent' })],
    ['filter offline', q({ offline: '1' })],
    ['filter buffer over 50 %', q({ buffer: '1', sort: 'buffer', order: 'desc' })],
    ['filter weak signal', q({ weak: '1', sort: 'lte' })],
    ['filter weak signal, last page', q({ weak: '1', page_no: '459' })],
    ['offline and buffer over 50 %', q({ offline: '1', buffer: '1' })],
    ['offline and weak signal', q({ offline: '1', weak: '1', sort: 'last_contact', order: 'desc' })],
    ['buffer over 50 % and weak signal', q({ buffer: '1', weak: '1', sort: 'oldest_unsent' })],
    ['all three filters', q({ offline: '1', buffer: '1', weak: '1' })],
  ];
  const results: Record<string, { p50_ms: number; p95_ms: number; total: number }> = {};
  for (const [name, query] of cases) {
    const times: number[] = [];
    let total = 0;
    for (let run = 0; run < 55; run += 1) {
      const t = performance.now();
      const list = await listGateways(db, admin, query);
      if (run >= 5) times.push(performance.now() - t);
      total = list.total;
    }
    times.sort((a, b) => a - b);
    results[name] = { p50_ms: Number(percentile(times, 0.5).toFixed(1)), p95_ms: Number(percentile(times, 0.95).toFixed(1)), total };
  }
  console.log(JSON.stringify({ machine: machine(), stores: STORES, history_rows: 200 * 8640, seed_seconds: Number(seedSeconds.toFixed(1)), results }, null, 2));
}

runBench('onreco_bench_gateway_list', main);
