// User master figures (issue 13): GET /v1/users/edit's listUsers and the /user/master page's loader
// queries (listUsers + the group filter's listAssignableGroups) with 20,000 stores, 100,000 users
// and 5,000 user groups, first and last page, for an administrator and an area manager, p50/p95
// over 50 runs after 5 warm-up runs.
//   npx tsx tests/bench/users.ts
import { sql } from 'kysely';
import { createDb } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { UserListQuerySchema, type UserListQuery } from '../../app/domain/user-master';
import { listAssignableGroups, listUsers } from '../../app/models/user-master.server';
import type { Viewer } from '../../app/models/users.server';
import { machine, percentile } from '../support/console';
import { prepareTestDatabase } from '../support/database';

const STORES = 20_000;
const USERS = 100_000;
const GROUPS = 5_000; // 1 administrator group, 200 area-manager groups, the rest store-user (101) groups
const AREA_GROUPS = 200;
const STORE_GROUPS = GROUPS - 1 - AREA_GROUPS;

async function main() {
  const database = await prepareTestDatabase('onreco_bench_users');
  const db = createDb(database.url, 4);
  try {
    await migrateToLatest(db);
    const t0 = performance.now();
    await sql`
      insert into companies values ('BC1', 'ベンチ商事', now(), now());
      insert into storegroups select 'G' || g, 'BC1', 'エリア' || g, now(), now() from generate_series(1, 200) g;
      insert into stores (store_id, store_no, store_name, company_id, storegroup_id, prefecture_id, address, opening_date, working_state, store_status, gateway_info)
        select 'S' || i, lpad(i::text, 8, '0'), 'ベンチ店 ' || i, 'BC1', 'G' || (1 + i % 200), 1 + i % 47, '住所', '2024-01-01', 1, 2, 'GW' || i
        from generate_series(1, ${sql.lit(STORES)}) i;
      insert into usergroups (usergroup_name, usergroup_authority) values ('管理者', 1);
      insert into usergroups (usergroup_name, usergroup_authority) select 'エリア ' || g, 30 from generate_series(1, ${sql.lit(AREA_GROUPS)}) g;
      insert into usergroups (usergroup_name, usergroup_authority) select '店舗スタッフ ' || g, 101 from generate_series(1, ${sql.lit(STORE_GROUPS)}) g;
      -- each store: its area group (2..201) and a store-user group (202..5000)
      insert into store_usergroups select 'S' || i, 2 + i % ${sql.lit(AREA_GROUPS)} from generate_series(1, ${sql.lit(STORES)}) i;
      insert into store_usergroups select 'S' || i, ${sql.lit(2 + AREA_GROUPS)} + i % ${sql.lit(STORE_GROUPS)} from generate_series(1, ${sql.lit(STORES)}) i;
      insert into users (login_id, user_name, company_id, tel_no, mailaddress1, mailaddress2, language, valid_flg, alert_filter)
        select 'user' || u, '利用者 ' || u, 'BC1', '0312345678', 'user' || u || '@example.com', case when u % 3 = 0 then 'alt' || u || '@example.com' end,
               case when u % 10 = 0 then 'US' else 'JP' end, case when u % 25 = 0 then 0 else 1 end, u % 3
        from generate_series(1, ${sql.lit(USERS)}) u;
      -- user 1 administrator, users 2..401 area managers (2 per area group), the rest store users
      insert into user_usergroups select u, case when u = 1 then 1 when u <= 401 then 2 + u % ${sql.lit(AREA_GROUPS)} else ${sql.lit(2 + AREA_GROUPS)} + u % ${sql.lit(STORE_GROUPS)} end
        from generate_series(1, ${sql.lit(USERS)}) u;
      analyze;
    `.execute(db);
    const seedSeconds = (performance.now() - t0) / 1000;
    const admin: Viewer = { userId: 1, loginId: 'user1', userName: '利用者 1', authority: 1, language: 'JP', mailaddress1: null };
    const area: Viewer = { ...admin, userId: 2, loginId: 'user2', authority: 30 };
    const q = (extra: Record<string, unknown> = {}): UserListQuery => UserListQuerySchema.parse(extra);
    const adminCount = (await listUsers(db, admin, q())).all_count;
    const areaCount = (await listUsers(db, area, q())).all_count;
    const last = (count: number) => Math.max(1, Math.ceil(count / 20));
    const cases: [string, Viewer, UserListQuery][] = [
      ['admin first page', admin, q()],
      ['admin last page', admin, q({ page_no: last(adminCount) })],
      ['admin name search', admin, q({ user_name: '利用者 4242' })],
      ['admin mail search', admin, q({ mailaddress: 'alt999' })],
      ['admin group filter', admin, q({ usergroup_id: 3000 })],
      ['admin valid 0 + alert 2', admin, q({ valid_flg: 0, alert_filter: 2 })],
      ['area manager first page', area, q()],
      ['area manager last page', area, q({ page_no: last(areaCount) })],
    ];
    const time = async (work: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let run = 0; run < 55; run += 1) {
        const t = performance.now();
        await work();
        if (run >= 5) times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      return { p50_ms: Number(percentile(times, 0.5).toFixed(1)), p95_ms: Number(percentile(times, 0.95).toFixed(1)) };
    };
    const results: Record<string, unknown> = {};
    for (const [name, viewer, query] of cases) {
      const { all_count } = await listUsers(db, viewer, query);
      results[`call: ${name}`] = { ...(await time(() => listUsers(db, viewer, query))), all_count, page_no: query.page_no };
      results[`page: ${name}`] = await time(() => Promise.all([listUsers(db, viewer, query), listAssignableGroups(db, viewer)]));
    }
    console.log(JSON.stringify({ machine: machine(), stores: STORES, users: USERS, usergroups: GROUPS, seed_seconds: Number(seedSeconds.toFixed(1)), results }, null, 2));
  } finally {
    await db.destroy();
    await database.release();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
