// User master figures (issue 13): GET /v1/users/edit through its route (token, parse, count + page,
// JSON) and the /user/master page through its loader with a console session (everything but React's
// render), with 20,000 stores, 100,000 users and 5,000 user groups, first and last page, for an
// administrator and an area manager; and the group filter's options, which the page fetches from
// /resources/usergroup-choices only when the select is opened. p50/p95 over 50 runs after 5 warm-up.
//   npx tsx tests/bench/users.ts
import { sql } from 'kysely';
import { machine, percentile } from '../support/console';
import { type BenchDatabase, runBench } from '../support/bench';

const STORES = 20_000;
const USERS = 100_000;
const GROUPS = 5_000; // 1 administrator group, 200 area-manager groups, the rest store-user (101) groups
const AREA_GROUPS = 200;
const STORE_GROUPS = GROUPS - 1 - AREA_GROUPS;

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<Response>;

async function main({ db, url }: BenchDatabase) {
  process.env.DATABASE_URL = url;
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
  `.execute(db);
  // A table some minutes after a bulk load has been vacuumed by autovacuum (inserts trigger it):
  // the visibility map is set, so the index-only scans of the count and the page stay index-only.
  await sql`vacuum analyze`.execute(db);
  const seedSeconds = (performance.now() - t0) / 1000;
  const { hashPassword } = await import('../../app/services/password.server');
  const passwordHash = await hashPassword('bench_password_1');
  await db.updateTable('users').set({ password_hash: passwordHash }).where('user_id', 'in', [1, 2]).execute();
  const { tokenFor, call, get } = await import('../support/requests');
  const { createLoginSession } = await import('../../app/http/session.server');
  const signIn = async (loginId: string, userId: number) => {
    const token = await tokenFor(loginId, 'bench_password_1');
    const session = await createLoginSession({ access_token: token, '.expires': new Date(Date.now() + 3600_000).toUTCString(), user_id: userId } as Parameters<typeof createLoginSession>[0], '/');
    return { token, cookie: session.headers.get('Set-Cookie')!.split(';')[0] };
  };
  const admin = await signIn('user1', 1);
  const area = await signIn('user2', 2);
  const routes = {
    call: (await import('../../app/routes/on-reco+/v1.users.edit')).loader as unknown as Handler,
    page: (await import('../../app/routes/_app+/user.master._index')).loader as unknown as Handler,
    choices: (await import('../../app/routes/resources+/usergroup-choices')).loader as unknown as Handler,
  };
  const countOf = async (who: { token: string }) => ((await (await call(routes.call as never, get('/on-reco/v1/users/edit?page_no=1', who.token))).json()) as { all_count: number }).all_count;
  const adminCount = await countOf(admin);
  const areaCount = await countOf(area);
  const last = (count: number) => Math.max(1, Math.ceil(count / 20));
  const cases: [string, { token: string; cookie: string }, string][] = [
    ['admin first page', admin, ''],
    ['admin last page', admin, `page_no=${last(adminCount)}`],
    ['admin name search', admin, `user_name=${encodeURIComponent('利用者 4242')}`],
    ['admin mail search', admin, 'mailaddress=alt999'],
    ['admin group filter', admin, 'usergroup_id=3000'],
    ['admin valid 0 + alert 2', admin, 'valid_flg=0&alert_filter=2'],
    ['area manager first page', area, ''],
    ['area manager last page', area, `page_no=${last(areaCount)}`],
  ];
  const time = async (handler: Handler, request: () => Request) => {
    const times: number[] = [];
    let bytes = 0;
    for (let run = 0; run < 55; run += 1) {
      const t = performance.now();
      const response = await call(handler as never, request());
      const body = await response.text();
      if (run >= 5) times.push(performance.now() - t);
      if (response.status !== 200) throw new Error(`${response.status} ${body.slice(0, 200)}`);
      bytes = body.length;
    }
    times.sort((a, b) => a - b);
    return { p50_ms: Number(percentile(times, 0.5).toFixed(1)), p95_ms: Number(percentile(times, 0.95).toFixed(1)), bytes };
  };
  const results: Record<string, unknown> = {};
  for (const [name, who, search] of cases) {
    results[`call: ${name}`] = await time(routes.call, () => get(`/on-reco/v1/users/edit?${search}`, who.token));
    results[`page: ${name}`] = await time(routes.page, () => get(`/user/master?${search}`, undefined, { Cookie: who.cookie }));
  }
  results['group filter options (opened): admin'] = await time(routes.choices, () => get('/resources/usergroup-choices', undefined, { Cookie: admin.cookie }));
  results['group filter options (opened): area manager'] = await time(routes.choices, () => get('/resources/usergroup-choices', undefined, { Cookie: area.cookie }));
  console.log(JSON.stringify({ machine: machine(), stores: STORES, users: USERS, usergroups: GROUPS, all_count: { admin: adminCount, area_manager: areaCount }, seed_seconds: Number(seedSeconds.toFixed(1)), results }, null, 2));
}

runBench('onreco_bench_users', main);
