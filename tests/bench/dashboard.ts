// Dashboard loader figures on a large chain: 20,000 stores × 20 sensors (400,000 sensors with
// their latest state), 2 % of stores in alarm. Times listStores() — what the dashboard loader
// and GET /v1/store_list run — for an administrator and an area manager, p50/p95 over 50 runs.
//   npx tsx tests/bench/dashboard.ts
import { sql } from 'kysely';
import { createDb } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import type { StoreListQuery } from '../../app/domain/store-list-schemas';
import { listStores } from '../../app/models/store-list.server';
import type { Viewer } from '../../app/models/users.server';
import { machine, percentile } from '../support/console';
import { prepareTestDatabase } from '../support/database';

const STORES = 20_000;
const SENSORS = 20;

async function main() {
  const database = await prepareTestDatabase('onreco_bench_dashboard');
  const db = createDb(database.url, 4);
  try {
    await migrateToLatest(db);
    const t0 = performance.now();
    await sql`
      insert into companies values ('BC1', 'ベンチ商事', now(), now());
      insert into storegroups select 'G' || g, 'BC1', 'エリア' || g, now(), now() from generate_series(1, 200) g;
      insert into stores (store_id, store_no, store_name, company_id, storegroup_id, prefecture_id, address, opening_date, working_state, store_status, gateway_info)
        select 'S' || i, lpad(i::text, 8, '0'), 'ベンチ店 ' || i, 'BC1', 'G' || (1 + i % 200), 1 + i % 47, '住所', '2024-01-01', 1,
               case when i % 50 = 0 then 3 else 2 end, 'GW' || i
        from generate_series(1, ${sql.lit(STORES)}) i;
      insert into sensors (store_id, equipment_name, serial_no, icon_kind, lower_limit, upper_limit)
        select 'S' || i, 'センサ' || s, 'AA:BB:CC:DD:' || lpad(to_hex(s / 256), 2, '0') || ':' || lpad(to_hex(s % 256), 2, '0'), 1 + s % 22, 0, 10
        from generate_series(1, ${sql.lit(STORES)}) i, generate_series(1, ${sql.lit(SENSORS)}) s;
      insert into sensor_states (store_id, equipment_id, last_measured_at, last_temperature, status, alert_codes)
        select store_id, equipment_id, now(), 4.5,
               case when right(store_id, 2) in ('00', '50') and equipment_id % 20 = 0 then 2 else 0 end,
               case when right(store_id, 2) in ('00', '50') and equipment_id % 20 = 0 then '{OE00000001}'::varchar[] else '{}' end
        from sensors;
      insert into usergroups (usergroup_name, usergroup_authority) values ('管理者', 1), ('エリアマネージャー', 30);
      insert into users (login_id, user_name) values ('admin', '管理者'), ('area', 'エリア');
      insert into user_usergroups values (1, 1), (2, 2);
      insert into store_usergroups select 'S' || i, 2 from generate_series(1, 15) i;
      analyze;
    `.execute(db);
    const seedSeconds = (performance.now() - t0) / 1000;
    const admin: Viewer = { userId: 1, loginId: 'admin', userName: '管理者', authority: 1, language: 'JP', mailaddress1: null };
    const area: Viewer = { ...admin, userId: 2, loginId: 'area', authority: 30 };
    const page = (extra: Partial<StoreListQuery> = {}): StoreListQuery => ({ page_no: 1, page_count: 20, ...extra });
    const cases: [string, Viewer, StoreListQuery][] = [
      ['admin page 1', admin, page()],
      ['admin page 500', admin, page({ page_no: 500 })],
      ['admin prefecture 13', admin, page({ prefecture_id: 13 })],
      ['admin in alarm', admin, page({ store_status: 3 })],
      ['admin name search', admin, page({ store_name: '店 1999' })],
      ['area manager (15 stores)', area, page()],
    ];
    const results: Record<string, { p50_ms: number; p95_ms: number; all_count: number }> = {};
    for (const [name, viewer, query] of cases) {
      const times: number[] = [];
      let allCount = 0;
      for (let run = 0; run < 55; run += 1) {
        const t = performance.now();
        const list = await listStores(db, viewer, query, 'JP');
        if (run >= 5) times.push(performance.now() - t); // the first runs warm the cache
        allCount = list.all_count;
      }
      times.sort((a, b) => a - b);
      results[name] = { p50_ms: Number(percentile(times, 0.5).toFixed(1)), p95_ms: Number(percentile(times, 0.95).toFixed(1)), all_count: allCount };
    }
    console.log(JSON.stringify({ machine: machine(), stores: STORES, sensors: STORES * SENSORS, seed_seconds: Number(seedSeconds.toFixed(1)), results }, null, 2));
  } finally {
    await db.destroy();
    await database.release();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
