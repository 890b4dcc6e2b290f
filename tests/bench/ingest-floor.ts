// The floor of ingest: CPU of one 20-reading gzip gateway post (what a store sends a minute), the
// web process's and PostgreSQL's, for the bare measuring stick (tests/bench/ingest-floor/server.ts:
// node:http + gunzip + JSON.parse + one prepared 20-row insert through node-pg into the same table,
// with the same bucket upsert in that statement)
// and for the console's real readings call (token, sensors, alert evaluation, states, store row,
// buckets), one after the other in the same run against the same PostgreSQL, and their ratio.
// ROUNDS alternates the two, so a change in the machine's load shows as a spread, not a bias.
//   npx tsx tests/bench/ingest-floor.ts      (STORES=40 GATEWAYS=8 DURATION=15 ROUNDS=2 to change; PROFILE=dir for a CPU profile of the console)
import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { createDb } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { ensureMeasurementPartitions } from '../../app/models/measurement-partitions.server';
import { prepareTestDatabase } from '../support/database';
import { pairOverApi } from '../support/gateway-api';
import { machine, serveConsole } from '../support/console';
import { freePort } from '../support/ports';
import { stopProcess } from '../support/processes';
import { cpuSecondsOf, parentOf, trackProcessTreeCpu } from '../support/process-cpu';
import { batch, seedStores } from './ingest-floor/world';

const STORES = Number(process.env.STORES ?? 40);
const GATEWAYS = Number(process.env.GATEWAYS ?? 8);
const SECONDS = Number(process.env.DURATION ?? 15);
const ROUNDS = Number(process.env.ROUNDS ?? 2);

interface Side { posts: number; readings: number; web: number; postgres: number; seconds: number }

async function main() {
  const database = await prepareTestDatabase('onreco_bench_ingest_floor');
  const db = createDb(database.url, 2);
  await migrateToLatest(db);
  const start = Date.now() - 300 * 86400_000;
  await ensureMeasurementPartitions(db, new Date(start), new Date());
  await seedStores(db, STORES);
  const postmaster = parentOf((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0].pid);
  // PROFILE=dir: the console writes a V8 CPU profile there when it stops (node --cpu-prof).
  const console_ = await serveConsole(database.url, {}, undefined, process.env.PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE}`] : []);
  const floor = await serveFloor(database.url);
  const loads: string[] = [];
  try {
    const consoleTokens = await Promise.all(Array.from({ length: STORES }, (_, i) => pairOverApi(console_.base, `B${i}`, '123456')));
    const floorTokens = Array.from({ length: STORES }, (_, i) => `B${i}`);
    // Each side replays its own stretch of time, minute by minute: no post is a duplicate.
    const floorCursors = floorTokens.map(() => start);
    const consoleCursors = consoleTokens.map(() => start + 150 * 86400_000);
    const totals = { floor: empty(), console: empty() };
    for (let round = 0; round < ROUNDS; round += 1) {
      loads.push(os.loadavg()[0].toFixed(1));
      add(totals.floor, await drive(floor.base, floor.process.pid!, postmaster, floorTokens, floorCursors));
      add(totals.console, await drive(console_.base, console_.process.pid!, postmaster, consoleTokens, consoleCursors));
    }
    loads.push(os.loadavg()[0].toFixed(1));
    const perPost = (side: Side) => ({
      posts: side.posts,
      posts_per_s: Math.round(side.posts / side.seconds),
      web_cpu_ms_per_post: Number(((side.web * 1000) / side.posts).toFixed(3)),
      postgresql_cpu_ms_per_post: Number(((side.postgres * 1000) / side.posts).toFixed(3)),
    });
    const f = perPost(totals.floor);
    const c = perPost(totals.console);
    console.log(JSON.stringify({
      machine: machine(), load_average_1min_by_round: loads, stores: STORES, concurrent_gateways: GATEWAYS, seconds_per_side_per_round: SECONDS, rounds: ROUNDS, readings_per_post: 20,
      floor: f, console: c,
      ratio: { web: Number((c.web_cpu_ms_per_post / f.web_cpu_ms_per_post).toFixed(2)), postgresql: Number((c.postgresql_cpu_ms_per_post / f.postgresql_cpu_ms_per_post).toFixed(2)) },
      // 20,000 stores posting each minute: 333 posts/s.
      cores_for_333_posts_per_s: Number((((c.web_cpu_ms_per_post + c.postgresql_cpu_ms_per_post) * 333) / 1000).toFixed(2)),
    }, null, 2));
  } finally {
    await stopProcess(floor.process);
    await console_.stop();
    await db.destroy();
    await database.release();
  }
}

const empty = (): Side => ({ posts: 0, readings: 0, web: 0, postgres: 0, seconds: 0 });
function add(total: Side, side: Side) {
  for (const key of Object.keys(total) as (keyof Side)[]) total[key] += side[key];
}

/** GATEWAYS concurrent gateways posting 20-reading gzip batches for SECONDS; the CPU the server and PostgreSQL spent on them. */
async function drive(base: string, serverPid: number, postmaster: number, tokens: string[], cursors: number[]): Promise<Side> {
  let next = 0;
  let posts = 0;
  let readings = 0;
  const postgres = trackProcessTreeCpu(postmaster);
  const web0 = cpuSecondsOf(serverPid);
  const t0 = performance.now();
  const deadline = t0 + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: GATEWAYS }, async () => {
      while (performance.now() < deadline) {
        const store = next++ % STORES;
        const body = gzipSync(JSON.stringify(batch(store, cursors[store], 1)));
        cursors[store] += 60_000;
        const response = await fetch(`${base}/on-reco/v1/gateway/readings`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${tokens[store]}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
          body,
        });
        const text = await response.text();
        if (response.status === 429) continue;
        if (!response.ok) throw new Error(`${response.status} ${text}`);
        const answer = JSON.parse(text) as { accepted: number };
        if (answer.accepted !== 20) throw new Error(`a post stored ${answer.accepted} of 20 readings`);
        posts += 1;
        readings += answer.accepted;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { posts, readings, web: cpuSecondsOf(serverPid) - web0, postgres: postgres.stop(), seconds };
}

async function serveFloor(databaseUrl: string): Promise<{ base: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/bench/ingest-floor/server.ts')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', () => resolve());
    child.once('exit', () => reject(new Error('the floor server did not start')));
  });
  return { base: `http://127.0.0.1:${port}`, process: child };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
