// onreco figures (issue 15): start-up of the installed bin to its first output (`onreco --help`,
// and `onreco stores list --page 1` against a console), and `onreco stores list --json` of a
// 20,000-store chain with 20 sensors a store, each p50/p95; then `onreco stores import` of a CSV of 1,000 new stores with
// 20 sensors each, end to end (dry run, import, the same file again). The bin runs the bundle
// `npm ci` builds (scripts/build-cli.mjs), not tsx: this bench builds it first.
//   npx tsx tests/bench/cli.ts            (STORES=2000 for a smaller chain, IMPORT_STORES=100)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDb } from '../../app/db/db.server';
import { syncStoreListEntries } from '../../app/models/stores.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { hashPassword } from '../../app/services/password.server';
import { machine, percentile, serveConsole } from '../support/console';
import { prepareTestDatabase } from '../support/database';

const STORES = Number(process.env.STORES ?? 20_000);
const IMPORT_STORES = Number(process.env.IMPORT_STORES ?? 1_000);
const SENSORS_PER_STORE = 20;
const PASSWORD = 'bench_password_2026';

/** The import's CSV: new stores (I…) of the bench's chain, each with its sensors, one row per sensor. */
function importCsv(stores: number): string {
  const lines = ['store_id,store_no,store_name,company_id,storegroup_id,prefecture_id,address,opening_date,usergroups,gateway_info,serial_no,equipment_name,icon_kind,lower_limit,upper_limit,guard_time,snoozing_time,def_time'];
  for (let store = 1; store <= stores; store += 1) {
    for (let sensor = 1; sensor <= SENSORS_PER_STORE; sensor += 1) {
      const head = sensor === 1 ? `I${store},9${String(store).padStart(7, '0')},取込店 ${store},BC1,G${1 + (store % 200)},13,東京都千代田区1-1,20261201,管理者,GWI${store}` : `I${store},,,,,,,,,`;
      const serial = `E0:${[store >> 8, store & 255, 0, 0, sensor].map((byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':')}`;
      lines.push(`${head},${serial},ケース${sensor},3,0,8,30,60,"02:00-02:30,14:00-14:30"`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** One run of the bin to its exit, with the answer it printed (--json). */
async function timedImport(args: string[], env: Record<string, string>) {
  const result = await timeBin(args, env);
  if (result.code !== 0) throw new Error(`onreco ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return { ms: Math.round(result.exitMs), load: os.loadavg()[0].toFixed(1) };
}

/** Runs the bin; resolves with the ms to its first byte of output and to its exit. */
function timeBin(args: string[], env: Record<string, string>): Promise<{ firstOutputMs: number; exitMs: number; code: number | null; bytes: number; stderr: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    let firstOutputMs = -1;
    let bytes = 0;
    const child = spawn(process.execPath, [path.resolve('bin/onreco.js'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => {
      if (firstOutputMs < 0) firstOutputMs = performance.now() - started;
      bytes += chunk.length;
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ firstOutputMs, exitMs: performance.now() - started, code, bytes, stderr }));
  });
}

async function figures(runs: number, args: string[], env: Record<string, string>, field: 'firstOutputMs' | 'exitMs', beforeEach = () => {}) {
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < runs + 1; run += 1) {
    beforeEach();
    const result = await timeBin(args, env);
    if (result.code !== 0) throw new Error(`onreco ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    if (run > 0) times.push(result[field]); // the first run warms the file cache
    bytes = result.bytes;
  }
  times.sort((a, b) => a - b);
  return { p50_ms: Math.round(percentile(times, 0.5)), p95_ms: Math.round(percentile(times, 0.95)), runs, output_bytes: bytes };
}

async function main() {
  const build = spawnSync(process.execPath, ['scripts/build-cli.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the CLI bundle did not build');
  const database = await prepareTestDatabase('onreco_bench_cli');
  const db = createDb(database.url, 4);
  const console_ = await serveConsole(database.url);
  try {
    await migrateToLatest(db);
    const passwordHash = await hashPassword(PASSWORD);
    await sql`
      insert into companies values ('BC1', 'ベンチ商事', now(), now());
      insert into storegroups select 'G' || g, 'BC1', 'エリア' || g, now(), now() from generate_series(1, 200) g;
      insert into stores (store_id, store_no, store_name, company_id, storegroup_id, prefecture_id, address, opening_date, working_state, store_status, gateway_info)
        select 'S' || i, lpad(i::text, 8, '0'), 'ベンチ店 ' || i, 'BC1', 'G' || (1 + i % 200), 1 + i % 47, '住所', '2024-01-01', 1,
               case when i % 50 = 0 then 3 else 0 end, 'GW' || i
        from generate_series(1, ${sql.lit(STORES)}) i;
      insert into usergroups (usergroup_name, usergroup_authority) values ('管理者', 1);
      -- 20 sensors a store, about one in a hundred in alarm: the list gathers their messages.
      insert into sensors (store_id, equipment_name, serial_no, icon_kind)
        select 'S' || i, 'ケース' || k, 'E1:00:00:00:00:' || lpad(k::text, 2, '0'), 3 from generate_series(1, ${sql.lit(STORES)}) i, generate_series(1, ${sql.lit(SENSORS_PER_STORE)}) k;
      insert into sensor_states (store_id, equipment_id, status, alert_codes)
        select store_id, equipment_id, case when equipment_id % 97 = 0 then 2 else 0 end, case when equipment_id % 97 = 0 then '{OE00000001}'::varchar[] else '{}' end from sensors;
      analyze;
    `.execute(db);
    await syncStoreListEntries(db, 'every store');
    // A parameter makes it a prepared statement: one statement each.
    await sql`insert into users (login_id, user_name, password_hash) values ('admin', '管理者', ${passwordHash})`.execute(db);
    await sql`insert into user_usergroups values (1, 1)`.execute(db);
    const configDir = mkdtempSync(path.join(os.tmpdir(), 'onreco-bench-cli-'));
    const env = { ONRECO_CONFIG_DIR: configDir };
    const login = () => {
      const run = spawnSync(process.execPath, [path.resolve('bin/onreco.js'), 'login', '--server', console_.base, '--login-id', 'admin', '--password-stdin'], { input: PASSWORD, env: { ...process.env, ...env } });
      if (run.status !== 0) throw new Error(`login failed: ${run.stderr}`);
    };
    login();

    const results: Record<string, unknown> = {
      'onreco --help (first output)': await figures(20, ['--help'], env, 'firstOutputMs'),
      'onreco stores list --page 1 (first output)': await figures(20, ['stores', 'list', '--page', '1'], env, 'firstOutputMs'),
      // One run is 200 calls, within a client's burst (300 a minute); runs one after another on one
      // token would measure the server's rate limit (the CLI waits its Retry-After), so each run
      // signs in first, as separate runs of a script a minute apart would find the limit.
      [`onreco stores list --json, ${STORES} stores (to exit)`]: await figures(5, ['stores', 'list', '--json'], env, 'exitMs', login),
    };
    const file = path.join(configDir, 'import.csv');
    writeFileSync(file, importCsv(IMPORT_STORES));
    const size = `${IMPORT_STORES} stores, ${IMPORT_STORES * SENSORS_PER_STORE} sensors`;
    results[`onreco stores import --dry-run, ${size} (to exit)`] = await timedImport(['stores', 'import', file, '--dry-run', '--json'], env);
    results[`onreco stores import, ${size} (to exit)`] = await timedImport(['stores', 'import', file, '--json'], env);
    results[`onreco stores import of the same file again, nothing to create (to exit)`] = await timedImport(['stores', 'import', file, '--json'], env);
    const { rows } = await sql<{ stores: number; sensors: number }>`select (select count(*)::int from stores where store_id like 'I%') as stores, (select count(*)::int from sensors where store_id like 'I%') as sensors`.execute(db);
    if (rows[0].stores !== IMPORT_STORES || rows[0].sensors !== IMPORT_STORES * SENSORS_PER_STORE) throw new Error(`the import wrote ${JSON.stringify(rows[0])}`);
    console.log(JSON.stringify({ machine: machine(), load: os.loadavg().map((load) => Number(load.toFixed(1))), stores: STORES, results }, null, 2));
  } finally {
    await console_.stop();
    await db.destroy();
    await database.release();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
