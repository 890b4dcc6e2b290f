// The system master lists (issue 13 figures): each list call and each list page's loader, on the
// first page, the last page and with a name search, with 20,000 stores, 100,000 users and 5,000
// user groups (200 companies, 1,000 store groups). p50/p95 over 50 runs after 5 warm-up runs.
// The API calls go through their route (token, parse, query, JSON); the pages through their
// loader with a console session (everything but React's render).
//   npx tsx tests/bench/masters.ts
import { sql } from 'kysely';
import { machine, percentile } from '../support/console';
import { type BenchDatabase, runBench } from '../support/bench';

const STORES = 20_000;
const USERS = 100_000;
const USERGROUPS = 5_000;
const COMPANIES = 200;
const STOREGROUPS = 1_000;
const RUNS = 50;
const WARM = 5;

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<Response>;

async function main({ db, url }: BenchDatabase) {
  process.env.DATABASE_URL = url;
  const t0 = performance.now();
  await sql`
    insert into companies select 'CO' || c, '会社' || c, now(), now() from generate_series(1, ${sql.lit(COMPANIES)}) c;
    insert into storegroups select 'G' || g, 'CO' || (1 + g % ${sql.lit(COMPANIES)}), 'エリア' || g, now(), now() from generate_series(1, ${sql.lit(STOREGROUPS)}) g;
    insert into stores (store_id, store_no, store_name, company_id, storegroup_id, prefecture_id, address, opening_date, working_state, store_status, gateway_info)
      select 'S' || i, lpad(i::text, 8, '0'), 'ベンチ店 ' || i, 'CO' || (1 + (i % ${sql.lit(STOREGROUPS)}) % ${sql.lit(COMPANIES)}), 'G' || (i % ${sql.lit(STOREGROUPS)} + 0 + case when i % ${sql.lit(STOREGROUPS)} = 0 then ${sql.lit(STOREGROUPS)} else 0 end),
             1 + i % 47, '住所', '2024-01-01', 1, 2, 'GW' || i
      from generate_series(1, ${sql.lit(STORES)}) i;
    insert into usergroups (usergroup_name, usergroup_authority)
      select case when g = 1 then '管理者' else 'ユーザーグループ' || g end, case when g = 1 then 1 when g % 10 = 0 then 30 else 101 end from generate_series(1, ${sql.lit(USERGROUPS)}) g;
    insert into users (login_id, user_name, mailaddress1) select 'u' || u, 'ユーザー' || u, 'u' || u || '@example.com' from generate_series(1, ${sql.lit(USERS)}) u;
    insert into user_usergroups select u, 1 + u % ${sql.lit(USERGROUPS)} from generate_series(1, ${sql.lit(USERS)}) u;
    insert into store_usergroups select 'S' || i, 2 + i % (${sql.lit(USERGROUPS)} - 1) from generate_series(1, ${sql.lit(STORES)}) i;
  `.execute(db);
  // As some minutes after a bulk load, when autovacuum has run: the visibility map is set.
  await sql`vacuum analyze`.execute(db);
  const seedSeconds = (performance.now() - t0) / 1000;
  // The administrator: user 5000 is in group 1 (5000 % 5000 = 0 → 1 + 0).
  await db.updateTable('users').set({ login_id: 'benchadmin', password_hash: await (await import('../../app/services/password.server')).hashPassword('bench_password_1') }).where('user_id', '=', USERGROUPS).execute();
  const { tokenFor, call, get } = await import('../support/requests');
  const { createLoginSession } = await import('../../app/http/session.server');
  const token = await tokenFor('benchadmin', 'bench_password_1');
  const session = await createLoginSession({ access_token: token, '.expires': new Date(Date.now() + 3600_000).toUTCString(), user_id: USERGROUPS } as Parameters<typeof createLoginSession>[0], '/');
  const cookie = session.headers.get('Set-Cookie')!.split(';')[0];
  const routes = {
    usergroupsApi: (await import('../../app/routes/on-reco+/v1.usergroups.edit')).loader as unknown as Handler,
    companyApi: (await import('../../app/routes/on-reco+/v1.company.edit')).loader as unknown as Handler,
    storegroupApi: (await import('../../app/routes/on-reco+/v1.storegroup.edit')).loader as unknown as Handler,
    usergroupsPage: (await import('../../app/routes/_app+/usergroup.master._index')).loader as unknown as Handler,
    companyPage: (await import('../../app/routes/_app+/company.master._index')).loader as unknown as Handler,
    storegroupPage: (await import('../../app/routes/_app+/storegroup.master._index')).loader as unknown as Handler,
  };
  const lastPage = (total: number) => Math.ceil(total / 20);
  const api = (path: string) => () => get(path, token);
  const page = (path: string) => () => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });
  const cases: [string, Handler, () => Request][] = [
    ['GET /v1/usergroups/edit first page', routes.usergroupsApi, api('/on-reco/v1/usergroups/edit?page_no=1&page_count=20')],
    ['GET /v1/usergroups/edit last page', routes.usergroupsApi, api(`/on-reco/v1/usergroups/edit?page_no=${lastPage(USERGROUPS)}&page_count=20`)],
    ['GET /v1/usergroups/edit name search', routes.usergroupsApi, api(`/on-reco/v1/usergroups/edit?page_no=1&page_count=20&usergroup_name=${encodeURIComponent('グループ49')}`)],
    ['GET /v1/company/edit first page', routes.companyApi, api('/on-reco/v1/company/edit?page_no=1&page_count=20')],
    ['GET /v1/company/edit last page', routes.companyApi, api(`/on-reco/v1/company/edit?page_no=${lastPage(COMPANIES)}&page_count=20`)],
    ['GET /v1/company/edit name search', routes.companyApi, api(`/on-reco/v1/company/edit?page_no=1&page_count=20&company_name=${encodeURIComponent('会社1')}`)],
    ['GET /v1/storegroup/edit first page', routes.storegroupApi, api('/on-reco/v1/storegroup/edit?page_no=1&page_count=20')],
    ['GET /v1/storegroup/edit last page', routes.storegroupApi, api(`/on-reco/v1/storegroup/edit?page_no=${lastPage(STOREGROUPS)}&page_count=20`)],
    ['GET /v1/storegroup/edit name search', routes.storegroupApi, api(`/on-reco/v1/storegroup/edit?page_no=1&page_count=20&storegroup_name=${encodeURIComponent('エリア9')}`)],
    ['/usergroup/master first page', routes.usergroupsPage, page('/usergroup/master')],
    ['/usergroup/master last page', routes.usergroupsPage, page(`/usergroup/master?page_no=${lastPage(USERGROUPS)}`)],
    ['/usergroup/master name search', routes.usergroupsPage, page(`/usergroup/master?usergroup_name=${encodeURIComponent('グループ49')}`)],
    ['/company/master first page', routes.companyPage, page('/company/master')],
    ['/company/master last page', routes.companyPage, page(`/company/master?page_no=${lastPage(COMPANIES)}`)],
    ['/company/master name search', routes.companyPage, page(`/company/master?company_name=${encodeURIComponent('会社1')}`)],
    ['/storegroup/master first page', routes.storegroupPage, page('/storegroup/master')],
    ['/storegroup/master last page', routes.storegroupPage, page(`/storegroup/master?page_no=${lastPage(STOREGROUPS)}`)],
    ['/storegroup/master name search', routes.storegroupPage, page(`/storegroup/master?storegroup_name=${encodeURIComponent('エリア9')}`)],
  ];
  const results: Record<string, { p50_ms: number; p95_ms: number; bytes: number }> = {};
  for (const [name, handler, request] of cases) {
    const times: number[] = [];
    let bytes = 0;
    for (let run = 0; run < RUNS + WARM; run += 1) {
      const t = performance.now();
      const response = await call(handler as never, request());
      const body = await response.text();
      if (run >= WARM) times.push(performance.now() - t);
      if (response.status !== 200) throw new Error(`${name}: ${response.status} ${body.slice(0, 200)}`);
      bytes = body.length;
    }
    times.sort((a, b) => a - b);
    results[name] = { p50_ms: Number(percentile(times, 0.5).toFixed(1)), p95_ms: Number(percentile(times, 0.95).toFixed(1)), bytes };
  }
  console.log(JSON.stringify({ machine: machine(), stores: STORES, users: USERS, usergroups: USERGROUPS, companies: COMPANIES, storegroups: STOREGROUPS, seed_seconds: Number(seedSeconds.toFixed(1)), runs: RUNS, results }, null, 2));
}

runBench('onreco_bench_masters', main);
