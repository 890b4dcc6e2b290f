// Dashboard and sensor-view loader figures on a large chain: 20,000 stores × 20 sensors (400,000
// sensors with their latest state), 2 % of stores in alarm. Times listStores() — what the
// dashboard loader and GET /v1/store_list run — for an administrator and two area managers
// (15 and 2,000 stores) on the first, a middle and the last page and under each filter, and the
// sensor views' loaders (listStoreSensors, the settings tab's lists, a sensor's today), p50/p95/p99
// over RUNS runs. Each list case also runs main's list queries as of bf7be78 (OFFSET over stores,
// kept below as mainListStores with its index), the two interleaved run by run, so before and
// after meet the same load on this shared machine; db_cpu_ms is the PostgreSQL backend's CPU time
// per call (one connection, read from /proc), the figure that load does not bend. Twice: on freshly analyzed tables, then after the stores were churned as live
// ingest churns them (every gateway post writes stores.last_gateway_contact_at: CHURN rounds of
// one update per store, no vacuum in between), which is where the dashboard used to slow down.
//   npx tsx tests/bench/dashboard.ts        (RUNS=50, CHURN=3)
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Db } from '../../app/db/db.server';
import { syncStoreListEntries } from '../../app/models/stores.server';
import type { StoreListQuery } from '../../app/domain/store-list-schemas';
import { listSettingsSensors, listUnregisteredSensors } from '../../app/models/sensor-settings.server';
import { getSensorToday, listStoreSensors } from '../../app/models/sensors.server';
import { listStores } from '../../app/models/store-list.server';
import { storeVisibleTo } from '../../app/models/stores.server';
import type { Viewer } from '../../app/models/users.server';
import { machine, percentile } from '../support/console';
import { type BenchDatabase, runBench } from '../support/bench';

const STORES = 20_000;
const SENSORS = 20;
const RUNS = Number(process.env.RUNS ?? 50);
const WARM_UP = 5;
const CHURN = Number(process.env.CHURN ?? 3);
const LAST_PAGE = STORES / 20;

type Figures = { p50_ms: number; p95_ms: number; p99_ms: number; db_cpu_ms: number };

/** CPU time (user + system, ms) of a PostgreSQL backend so far, from /proc: fair on a loaded machine. */
let backendPid = 0;
function backendCpuMs(): number {
  const fields = readFileSync(`/proc/${backendPid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100); // clock ticks of 1/100 s
}

/** The figures of each run function, run in turn (a, b, a, b, …) so they share the machine's moments. */
async function timed(...runs: (() => Promise<unknown>)[]): Promise<Figures[]> {
  const times: number[][] = runs.map(() => []);
  const cpu = runs.map(() => 0);
  for (let i = 0; i < WARM_UP + RUNS; i += 1) {
    for (const [n, run] of runs.entries()) {
      const t = performance.now();
      const c = backendCpuMs();
      await run();
      if (i >= WARM_UP) {
        times[n].push(performance.now() - t); // the first runs warm the cache
        cpu[n] += backendCpuMs() - c;
      }
    }
  }
  return times.map((sorted, n) => {
    sorted.sort((a, b) => a - b);
    const at = (p: number) => Number(percentile(sorted, p).toFixed(1));
    return { p50_ms: at(0.5), p95_ms: at(0.95), p99_ms: at(0.99), db_cpu_ms: Number((cpu[n] / RUNS).toFixed(2)) };
  });
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** main's dashboard list queries as of bf7be78 (counts, then an OFFSET page over stores), for the comparison. */
async function mainListStores(db: Db, viewer: Viewer, query: StoreListQuery) {
  const filtered = () => {
    let stores = db.selectFrom('stores').where(storeVisibleTo(viewer));
    if (query.region_id) {
      const regionId = query.region_id;
      stores = stores.where('stores.prefecture_id', 'in', (eb) => eb.selectFrom('prefectures').select('prefecture_id').where('region_id', '=', regionId));
    }
    if (query.prefecture_id) stores = stores.where('stores.prefecture_id', '=', query.prefecture_id);
    if (query.company_id) stores = stores.where('stores.company_id', '=', query.company_id);
    if (query.storegroup_id) stores = stores.where('stores.storegroup_id', '=', query.storegroup_id);
    if (query.store_status !== undefined) stores = stores.where('stores.store_status', '=', query.store_status);
    if (query.store_name) stores = stores.where('stores.store_name', 'ilike', `%${escapeLike(query.store_name)}%`);
    if (query.store_no) stores = stores.where('stores.store_no', 'like', `${escapeLike(query.store_no)}%`);
    return stores;
  };
  const counts = await filtered()
    .select([sql<number>`count(*)::int`.as('all_count'), sql<number>`(count(*) filter (where stores.store_status = 3))::int`.as('alert_count')])
    .executeTakeFirstOrThrow();
  const page = filtered()
    .select(['stores.store_id', 'stores.store_no', 'stores.store_name', 'stores.working_state', 'stores.receive_sensitivity', 'stores.store_status'])
    .orderBy(sql`stores.store_status = 3`, 'desc')
    .orderBy('stores.store_no')
    .orderBy('stores.store_id')
    .limit(query.page_count)
    .offset((query.page_no - 1) * query.page_count)
    .as('page');
  const rows = await db
    .selectFrom(page)
    .select([
      'page.store_id',
      (eb) =>
        eb
          .selectFrom('sensor_states as ss')
          .select(sql`coalesce(json_agg(distinct jsonb_build_object('code', code, 'status', ss.status)), '[]')`.as('alerts'))
          .innerJoin(sql`unnest(ss.alert_codes)`.as('code'), (join) => join.onTrue())
          .whereRef('ss.store_id', '=', 'page.store_id')
          .where('ss.status', '>', 0)
          .as('alerts'),
    ])
    .orderBy(sql`page.store_status = 3`, 'desc')
    .orderBy('page.store_no')
    .orderBy('page.store_id')
    .execute();
  return { ...counts, stores: rows };
}

// One connection, so one backend does every query and its CPU time is each case's.
async function main({ db }: BenchDatabase) {
  backendPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0].pid;
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
    insert into usergroups (usergroup_name, usergroup_authority) values ('管理者', 1), ('エリアマネージャー', 30), ('大エリア', 30);
    insert into users (login_id, user_name) values ('admin', '管理者'), ('area', 'エリア'), ('wide', '大エリア');
    insert into user_usergroups values (1, 1), (2, 2), (3, 3);
    insert into store_usergroups select 'S' || i, 2 from generate_series(1, 15) i;
    insert into store_usergroups select 'S' || i, 3 from generate_series(1, ${sql.lit(STORES)}, 10) i;
    create index stores_dashboard_order on stores ((store_status = 3) desc, store_no, store_id); -- main's, for mainListStores
  `.execute(db);
  await syncStoreListEntries(db, 'every store');
  await sql`vacuum analyze`.execute(db); // as autovacuum leaves a settled chain: visibility maps set
  const seedSeconds = (performance.now() - t0) / 1000;
  const admin: Viewer = { userId: 1, loginId: 'admin', userName: '管理者', authority: 1, language: 'JP', mailaddress1: null };
  const area: Viewer = { ...admin, userId: 2, loginId: 'area', authority: 30 };
  const page = (extra: Partial<StoreListQuery> = {}): StoreListQuery => ({ page_no: 1, page_count: 20, ...extra });
  const wide: Viewer = { ...admin, userId: 3, loginId: 'wide', authority: 30 };
  const cases: [string, Viewer, StoreListQuery][] = [
    ['admin page 1', admin, page()],
    ['admin page 500 (middle)', admin, page({ page_no: LAST_PAGE / 2 })],
    [`admin page ${LAST_PAGE} (last)`, admin, page({ page_no: LAST_PAGE })],
    ['admin page past the end', admin, page({ page_no: LAST_PAGE + 1 })],
    ['admin region 3', admin, page({ region_id: 3 })],
    ['admin prefecture 13', admin, page({ prefecture_id: 13 })],
    ['admin prefecture 13 last page', admin, page({ prefecture_id: 13, page_no: 22 })],
    ['admin company BC1 page 500', admin, page({ company_id: 'BC1', page_no: LAST_PAGE / 2 })],
    ['admin group G7', admin, page({ storegroup_id: 'G7' })],
    ['admin in alarm (status 3)', admin, page({ store_status: 3 })],
    ['admin normal (status 2) last page', admin, page({ store_status: 2, page_no: 980 })],
    ['admin status 0 (none)', admin, page({ store_status: 0 })],
    ['admin name search "店 1999"', admin, page({ store_name: '店 1999' })],
    ['admin name search "1" page 100', admin, page({ store_name: '1', page_no: 100 })],
    ['admin name search "ベンチ" last page', admin, page({ store_name: 'ベンチ', page_no: LAST_PAGE })],
    ['admin store_no prefix "0001"', admin, page({ store_no: '0001' })],
    ['admin store_no prefix "000" page 40', admin, page({ store_no: '000', page_no: 40 })],
    ['admin prefecture + name', admin, page({ prefecture_id: 13, store_name: '店 1' })],
    ['area manager (15 stores)', area, page()],
    ['area manager (2,000 stores) page 1', wide, page()],
    ['area manager (2,000 stores) last page', wide, page({ page_no: 100 })],
    ['area manager (2,000 stores) name search', wide, page({ store_name: '店 19' })],
  ];
  const storeViews: [string, () => Promise<unknown>][] = [
    ['store sensors (views, GET /v1/store_sensors)', () => listStoreSensors(db, area, { storeId: 'S7', includeHidden: false })],
    ['store sensors, admin', () => listStoreSensors(db, admin, { storeId: 'S12345', includeHidden: true })],
    ['settings sensors tab', () => listSettingsSensors(db, admin, 'S12345')],
    ['settings unregistered sensors', () => listUnregisteredSensors(db, admin, 'S12345')],
    ['sensor today (popup)', () => getSensorToday(db, admin, { storeId: 'S12345', equipmentId: 12344 * SENSORS + 3, now: new Date() })],
  ];
  const measure = async () => {
    const results: Record<string, Figures | { all_count: number; main: Figures; now: Figures }> = {};
    for (const [name, viewer, query] of cases) {
      const [list, before] = [await listStores(db, viewer, query, 'JP'), await mainListStores(db, viewer, query)];
      const ids = (stores: { store_id: string }[]) => stores.map((store) => store.store_id).join();
      if (list.all_count !== before.all_count || ids(list.stores) !== ids(before.stores)) throw new Error(`${name}: the list differs from main's`);
      const [main, now] = await timed(() => mainListStores(db, viewer, query), () => listStores(db, viewer, query, 'JP'));
      results[name] = { all_count: list.all_count, main, now };
    }
    for (const [name, run] of storeViews) [results[name]] = await timed(run);
    return { load_average: machine().replace(/.*load average /, ''), results };
  };
  const fresh = await measure();
  const t1 = performance.now();
  for (let round = 0; round < CHURN; round += 1) {
    for (let from = 1; from <= STORES; from += 1000) {
      await sql`update stores set last_gateway_contact_at = now() where store_id in (select 'S' || i from generate_series(${from}::int, ${from + 999}::int) i)`.execute(db);
    }
  }
  const churnSeconds = (performance.now() - t1) / 1000;
  const churned = await measure();
  console.log(JSON.stringify({ machine: machine(), stores: STORES, sensors: STORES * SENSORS, seed_seconds: Number(seedSeconds.toFixed(1)), churn_seconds: Number(churnSeconds.toFixed(1)), fresh, churned }, null, 2));
}

runBench('onreco_bench_dashboard', main, { pool: 1 });
