// The chain overview's figures on a large chain (issue 32, decision 292): 20,000 stores × 20
// sensors (400,000 sensor states), 2 % of stores in alarm, 1 % not connected. Times
// getChainOverview() — what GET /v1/chain_overview and the console's /chain_overview loader run —
// for an administrator (whole chain), a region filter and two area managers (15 and 2,000 stores):
// p50/p95/p99 over RUNS runs, after CHURN rounds of the stores' contact writes live ingest makes.
// Then the live path: a store's status change committed by refreshStoreStatus (as the ingest
// writes it) until a LISTEN connection hears it, plus the SSE coalescing (1 s) and a reload of the
// overview: what an open screen waits before it shows the change.
//   npx tsx tests/bench/chain-overview.ts        (RUNS=50, CHURN=3)
import pg from 'pg';
import { sql } from 'kysely';
import type { ChainOverviewQuery } from '../../app/domain/chain-overview-schemas';
import { CHAIN_OVERVIEW_WORST_COUNT } from '../../app/domain/chain-overview';
import { getChainOverview } from '../../app/models/chain-overview.server';
import { refreshStoreStatus, syncStoreListEntries } from '../../app/models/stores.server';
import type { Viewer } from '../../app/models/users.server';
import { machine, percentile } from '../support/console';
import { type BenchDatabase, runBench } from '../support/bench';

const STORES = 20_000;
const SENSORS = 20;
const RUNS = Number(process.env.RUNS ?? 50);
const WARM_UP = 5;
const CHURN = Number(process.env.CHURN ?? 3);
/** The event stream's coalescing window (app/http/sse.server.ts). */
const SSE_COALESCE_MS = 1000;

async function timed(run: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + RUNS; i += 1) {
    const t = performance.now();
    await run();
    if (i >= WARM_UP) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => Number(percentile(times, p).toFixed(1));
  return { p50_ms: at(0.5), p95_ms: at(0.95), p99_ms: at(0.99) };
}

async function main({ db, url }: BenchDatabase) {
  const t0 = performance.now();
  await sql`
    insert into companies values ('BC1', 'ベンチ商事', now(), now());
    insert into storegroups select 'G' || g, 'BC1', 'エリア' || g, now(), now() from generate_series(1, 200) g;
    insert into stores (store_id, store_no, store_name, company_id, storegroup_id, prefecture_id, address, opening_date, working_state, store_status, gateway_info)
      select 'S' || i, lpad(i::text, 8, '0'), 'ベンチ店 ' || i, 'BC1', 'G' || (1 + i % 200), 1 + i % 47, '住所', '2024-01-01', 1,
             case when i % 50 = 0 then 3 when i % 100 = 1 then 0 else 2 end, 'GW' || i
      from generate_series(1, ${sql.lit(STORES)}) i;
    insert into sensors (store_id, equipment_name, serial_no, icon_kind, lower_limit, upper_limit, measure_target_equipment_kind_id)
      select 'S' || i, 'センサ' || s, 'AA:BB:CC:DD:' || lpad(to_hex(s / 256), 2, '0') || ':' || lpad(to_hex(s % 256), 2, '0'), 1 + s % 22, 0, 10, 1 + s % 13
      from generate_series(1, ${sql.lit(STORES)}) i, generate_series(1, ${sql.lit(SENSORS)}) s;
    insert into sensor_states (store_id, equipment_id, last_measured_at, last_temperature, status, alert_codes)
      select store_id, equipment_id, now(), 4.5,
             case when right(store_id, 2) in ('00', '50') and equipment_id % 20 in (0, 7) then 2 when equipment_id % 997 = 0 then 1 else 0 end,
             case when right(store_id, 2) in ('00', '50') and equipment_id % 20 in (0, 7) then '{OE00000001}'::varchar[] else '{}' end
      from sensors;
    insert into usergroups (usergroup_name, usergroup_authority) values ('管理者', 1), ('エリアマネージャー', 30), ('大エリア', 30);
    insert into users (login_id, user_name) values ('admin', '管理者'), ('area', 'エリア'), ('wide', '大エリア');
    insert into user_usergroups values (1, 1), (2, 2), (3, 3);
    insert into store_usergroups select 'S' || i, 2 from generate_series(1, 15) i;
    insert into store_usergroups select 'S' || i, 3 from generate_series(1, ${sql.lit(STORES)}, 10) i;
  `.execute(db);
  await syncStoreListEntries(db, 'every store');
  await sql`vacuum analyze`.execute(db);
  for (let round = 0; round < CHURN; round += 1) {
    for (let from = 1; from <= STORES; from += 2000) {
      await sql`update stores set last_gateway_contact_at = now() where store_id in (select 'S' || i from generate_series(${from}::int, ${from + 1999}::int) i)`.execute(db);
      await sql`update sensor_states set last_measured_at = now(), updated_at = now() where store_id in (select 'S' || i from generate_series(${from}::int, ${from + 1999}::int) i)`.execute(db);
    }
  }
  const seedSeconds = (performance.now() - t0) / 1000;
  const admin: Viewer = { userId: 1, loginId: 'admin', userName: '管理者', authority: 1, language: 'JP', mailaddress1: null };
  const area: Viewer = { ...admin, userId: 2, loginId: 'area', authority: 30 };
  const wide: Viewer = { ...admin, userId: 3, loginId: 'wide', authority: 30 };
  const q = (extra: Partial<ChainOverviewQuery> = {}): ChainOverviewQuery => ({ worst_count: CHAIN_OVERVIEW_WORST_COUNT, ...extra });
  const cases: [string, Viewer, ChainOverviewQuery][] = [
    ['admin, whole chain', admin, q()],
    ['admin, region 3', admin, q({ region_id: 3 })],
    ['admin, group G7', admin, q({ storegroup_id: 'G7' })],
    ['area manager (15 stores)', area, q()],
    ['area manager (2,000 stores)', wide, q()],
  ];
  const results: Record<string, unknown> = {};
  for (const [name, viewer, query] of cases) {
    const answer = await getChainOverview(db, viewer, query, 'JP', new Date());
    results[name] = { store_count: answer.store_count, alarm_store_count: answer.alarm_store_count, ...(await timed(() => getChainOverview(db, viewer, query, 'JP', new Date()))) };
  }

  // The live path: a sensor of S12345 opens an alert; the store's status commit notifies.
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  await listener.query('listen onreco_store');
  const live: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const storeId = `S${12_001 + i}`;
    const heard = new Promise<number>((resolve) => listener.once('notification', () => resolve(performance.now())));
    const t = performance.now();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('sensor_states').set({ status: 2, alert_codes: ['OE00000001'] }).where('store_id', '=', storeId).where('equipment_id', '=', (12_000 + i) * SENSORS + 1).execute();
      await refreshStoreStatus(trx, storeId);
    });
    const notified = (await heard) - t;
    const r = performance.now();
    await getChainOverview(db, admin, q(), 'JP', new Date());
    live.push(notified + SSE_COALESCE_MS + (performance.now() - r));
  }
  await listener.end();
  live.sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        machine: machine(),
        stores: STORES,
        sensors: STORES * SENSORS,
        seed_seconds: Number(seedSeconds.toFixed(1)),
        load_average: machine().replace(/.*load average /, ''),
        first_load: results,
        status_change_to_screen_data_ms: { p50: Number(percentile(live, 0.5).toFixed(0)), max: Number(live[live.length - 1].toFixed(0)), note: 'commit → LISTEN heard + 1 s SSE coalescing + the reload query; the browser\'s render is not in it' },
      },
      null,
      2,
    ),
  );
}

runBench('onreco_bench_chain_overview', main, { pool: 1 });
