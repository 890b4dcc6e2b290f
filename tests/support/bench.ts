import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { closeSharedDb, createDb, type Db } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { ensureMeasurementPartitions } from '../../app/models/measurement-partitions.server';
import { runCli, type CliContext } from '../../gateway/cli';
import { buildGateway } from '../../gateway/deploy/build';
import { createSensor, createStore, issuePin } from '../fixtures/chain';
import { serveConsole } from './console';
import { prepareTestDatabase } from './database';

// Shared by the benchmarks: a run on a fresh database of its own, and for those that run against
// the real console, the database served by a production build, a store made with the chain
// fixtures, and a gateway paired with it.

export interface BenchDatabase {
  db: Db;
  url: string;
}

/**
 * Runs a bench on a fresh database `name` of its own, migrated, with a pool of `pool` connections.
 * The pool, the app's shared one (when the bench used it) and the database are let go whatever
 * happens; a failure is printed and ends the process with 1.
 */
export function runBench(name: string, bench: (database: BenchDatabase) => Promise<void>, { pool = 4 }: { pool?: number } = {}): void {
  const run = async () => {
    const database = await prepareTestDatabase(name);
    const db = createDb(database.url, pool);
    try {
      await migrateToLatest(db);
      await bench({ db, url: database.url });
    } finally {
      await db.destroy();
      await closeSharedDb();
      await database.release();
    }
  };
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

export interface BenchConsole {
  db: Db;
  databaseUrl: string;
  base: string;
  /** The web server's process (its CPU time, for figures). */
  serverPid: number;
  stop(): Promise<void>;
}

/** A fresh database `name` (migrated, measurement partitions from `since` on) and the console serving it. */
export async function startBenchConsole(name: string, since: Date): Promise<BenchConsole> {
  const database = await prepareTestDatabase(name);
  const db = createDb(database.url, 4);
  await migrateToLatest(db);
  await ensureMeasurementPartitions(db, since, new Date(Date.now() + 62 * 86400_000));
  const server = await serveConsole(database.url);
  return {
    db,
    databaseUrl: database.url,
    base: server.base,
    serverPid: server.process.pid!,
    async stop() {
      await server.stop();
      await db.destroy();
      await database.release();
    },
  };
}

type SensorOverrides = Parameters<typeof createSensor>[3];
/** The gateway PIN of every bench store. */
export const BENCH_PIN = '246810';

/** A store with one sensor per serial number and a gateway PIN; the equipment ids, in order. */
export async function createBenchStore(db: Db, storeId: string, serials: readonly string[], overrides: (index: number) => SensorOverrides = () => ({})): Promise<number[]> {
  await createStore(db, storeId);
  const ids: number[] = [];
  for (const [i, serial] of serials.entries()) ids.push(await createSensor(db, storeId, serial, overrides(i)));
  await issuePin(db, storeId, BENCH_PIN);
  return ids;
}

/** A gateway context that prints nothing and is never asked to stop. */
const quietGateway = (): CliContext => ({ stdout: () => undefined, stderr: () => undefined, env: {}, waitForStop: () => new Promise<string>(() => undefined), exitCode: 0 });

/** A new gateway data dir, paired with the store by the gateway's own `pair` command (in process). */
export async function pairGatewayDataDir(base: string, storeId: string): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'onreco-bench-gw-'));
  const code = await runCli(['pair', '--data-dir', dataDir, '--server', base, '--gateway-info', `GW-${storeId}`, '--pin', BENCH_PIN], quietGateway());
  if (code !== 0) throw new Error(`gateway pair exited ${code}`);
  return dataDir;
}

/** The node arguments that run the gateway as deployed: the bundle with the systemd unit's V8 flags. */
export async function deployedGateway(): Promise<string[]> {
  const bundle = await buildGateway(path.resolve('node_modules/.cache/onreco-gateway/onreco-gateway.mjs'));
  return ['--max-semi-space-size=1', '--v8-pool-size=1', bundle];
}

export interface GatewayRun {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The gateway's `run` on a data dir, as a child process started with `launch` (see deployedGateway). */
export function startGatewayRun(launch: string[], dataDir: string, args: string[]): GatewayRun {
  const child = spawn(process.execPath, [...launch, 'run', '--data-dir', dataDir, '--log-level', 'warn', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited };
}

/** The store's rows in measurements, and how many distinct (sensor, measured_at) they hold. */
export async function storedReadings(db: Db, storeId: string): Promise<{ rows: number; distinct: number }> {
  const { rows } = await sql<{ rows: number; distinct: number }>`
    select count(*)::int as rows, count(distinct (equipment_id, measured_at))::int as distinct
    from measurements where store_id = ${storeId}`.execute(db);
  return rows[0];
}
