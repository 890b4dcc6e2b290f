// `npm start`: PostgreSQL (embedded unless DATABASE_URL is set), migrations, the demo chain
// into an empty database, a build when the sources changed, then the web server (WEB_CONCURRENCY
// processes on one port), the workers and, on the demo chain, its simulated gateways. Ctrl-C
// stops them and PostgreSQL cleanly.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDb } from '../app/db/db.server';
import { type EmbeddedDatabase, startEmbeddedPostgres, takeOverStopSignals } from '../app/db/embedded-postgres.server';
import { migrateToLatest } from '../app/db/migrate.server';
import { ensureMeasurementPartitions } from '../app/models/measurement-partitions.server';
import { DEMO_DEFAULT_PASSWORD, demoChainWanted } from '../app/domain/demo';
import { getEnv } from '../app/env.server';
import { WORKER_NODE_FLAGS } from '../app/jobs/worker-flags';
import { isDatabaseEmpty, seedDemoChain } from '../app/demo/seed.server';
import { demoSeededAt } from '../app/demo/simulator.server';
import { logger } from '../app/services/logger.server';

const log = logger.child({ module: 'start' });
const DATA_DIR = path.resolve(process.env.ONRECO_DATA_DIR ?? '.data');
const dev = process.argv.includes('--dev');

async function main() {
  mkdirSync(DATA_DIR, { recursive: true });
  let embedded: EmbeddedDatabase | undefined;
  if (!process.env.DATABASE_URL) {
    const port = Number(process.env.ONRECO_EMBEDDED_PG_PORT ?? 54329);
    embedded = await startEmbeddedPostgres(path.join(DATA_DIR, 'pg'), port);
    process.env.DATABASE_URL = embedded.url;
    log.info({ port, dataDir: path.join(DATA_DIR, 'pg') }, 'embedded PostgreSQL started');
  }
  process.env.SESSION_SECRET ??= sessionSecret();
  process.env.ONRECO_OUTBOX_DIR ??= path.join(DATA_DIR, 'outbox');
  const children: ChildProcess[] = [];
  let stopping = false;
  const stop = async (code: number, signal?: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const running = () => children.filter((child) => child.exitCode === null && child.signalCode === null);
    // Ctrl-C in a terminal signals the whole process group, so the children are stopping already
    // (a second signal would make the web server close twice): they get 6 s to go by themselves.
    // The web server finishes its requests and ends its event streams; a process still there
    // 10 s after it was told is killed.
    const grace = signal === 'SIGINT' ? 6000 : 0;
    const tell = setTimeout(() => running().forEach((child) => child.kill('SIGTERM')), grace);
    const force = setTimeout(() => {
      for (const child of running()) {
        log.warn({ pid: child.pid, command: child.spawnargs.join(' ') }, 'killed: it did not stop within 10 s');
        child.kill('SIGKILL');
      }
    }, grace + 10_000);
    await Promise.all(running().map((child) => new Promise((done) => child.once('exit', done))));
    clearTimeout(tell);
    clearTimeout(force);
    if (embedded) await embedded.stop().catch((error) => log.error({ err: error }, 'PostgreSQL did not stop cleanly'));
    log.info('stopped');
    process.exit(code);
  };
  // PostgreSQL stops last, once the web server and the worker are gone.
  takeOverStopSignals();
  process.on('SIGINT', () => void stop(0, 'SIGINT'));
  process.on('SIGTERM', () => void stop(0, 'SIGTERM'));
  process.on('SIGHUP', () => void stop(0, 'SIGTERM'));

  const seededAt = await prepareDatabase(process.env.DATABASE_URL, demoChainWanted(getEnv().ONRECO_DEMO, embedded !== undefined));
  if (!dev) buildIfNeeded();
  const web = dev
    ? spawn('npx', ['remix', 'dev'], { stdio: 'inherit' })
    : spawn(process.execPath, ['--import', 'tsx', 'scripts/server.ts'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  // Two worker lanes: report rendering never holds up alert mails (app/jobs/worker.server.ts);
  // WORKER_CONCURRENCY processes each, which share the work through the database (decision 184).
  const lanes = (['alerts', 'reports'] as const).flatMap((lane) => Array.from({ length: getEnv().WORKER_CONCURRENCY }, () => lane));
  const workers = lanes.map((lane) => spawn(process.execPath, [...WORKER_NODE_FLAGS[lane], '--import', 'tsx', 'scripts/worker.ts', lane], { stdio: 'inherit' }));
  for (const child of [web, ...workers]) {
    children.push(child);
    child.once('exit', (code) => {
      if (!stopping) log.error({ code }, 'a process of the console stopped; stopping the others');
      void stop(code ?? 1);
    });
  }
  if (seededAt && getEnv().ONRECO_SIMULATOR) {
    const simulator = spawn(process.execPath, ['--import', 'tsx', 'scripts/simulator.ts', seededAt.toISOString()], { stdio: 'inherit' });
    children.push(simulator);
    // The demo's gateways are not the console: without them it runs on.
    simulator.once('exit', (code) => {
      children.splice(children.indexOf(simulator), 1);
      if (!stopping) log.error({ code }, 'the demo simulator stopped; the console runs on without it');
    });
  }
}

/** Migrates, seeds an empty demo database; returns when the demo chain was seeded (null when it is not in use). */
async function prepareDatabase(url: string, demo: boolean): Promise<Date | null> {
  const db = createDb(url, 4);
  try {
    await migrateToLatest(db);
    const now = new Date();
    await ensureMeasurementPartitions(db, new Date(now.getTime() - 40 * 86400_000), new Date(now.getTime() + 62 * 86400_000));
    if (demo && (await isDatabaseEmpty(db))) {
      const days = Number(process.env.ONRECO_DEMO_DAYS ?? 7);
      const started = Date.now();
      const summary = await seedDemoChain(db, { days, password: getEnv().ONRECO_DEMO_PASSWORD ?? DEMO_DEFAULT_PASSWORD, now });
      log.info({ ...summary, seconds: (Date.now() - started) / 1000 }, 'demo chain seeded');
    }
    return demo ? await demoSeededAt(db) : null;
  } finally {
    await db.destroy();
  }
}

/** A secret kept in .data so that sessions survive a restart of the console. */
function sessionSecret(): string {
  const file = path.join(DATA_DIR, 'session-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

function newestMtime(target: string): number {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(target).map((name) => newestMtime(path.join(target, name))));
}

function buildIfNeeded() {
  const output = path.resolve('build/index.js');
  const sources = ['app', 'remix.config.js', 'tailwind.config.ts', 'package-lock.json'].map((source) => newestMtime(path.resolve(source)));
  if (existsSync(output) && statSync(output).mtimeMs >= Math.max(...sources)) return;
  log.info('building the console');
  const { status } = spawnSync(path.resolve('node_modules/.bin/remix'), ['build'], { stdio: 'inherit' });
  if (status !== 0) throw new Error('remix build failed');
}

main().catch((error) => {
  log.fatal({ err: error }, 'the console could not start');
  process.exit(1);
});
