// `npm start`: PostgreSQL (embedded unless DATABASE_URL is set), migrations, the demo chain
// into an empty database, a build when the sources changed, then the web server (WEB_CONCURRENCY
// processes on one port), the workers and, on the demo chain, its simulated gateways. A process
// that dies is restarted with a backoff while the others serve on (app/services/process-supervisor);
// Ctrl-C or SIGTERM stops them, then PostgreSQL (in a session of its own, out of Ctrl-C's reach).
import { spawn, spawnSync } from 'node:child_process';
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
import { seedProgressLines } from '../app/demo/seed-progress';
import { demoSeededAt } from '../app/demo/simulator.server';
import { logger } from '../app/services/logger.server';
import { type SupervisedChild, type Supervisor, superviseChildren } from '../app/services/process-supervisor.server';

const log = logger.child({ module: 'start' });
const DATA_DIR = path.resolve(process.env.ONRECO_DATA_DIR ?? '.data');
const dev = process.argv.includes('--dev');

async function main() {
  mkdirSync(DATA_DIR, { recursive: true });
  let embedded: EmbeddedDatabase | undefined;
  if (!process.env.DATABASE_URL) {
    const port = Number(process.env.ONRECO_EMBEDDED_PG_PORT ?? 54329);
    embedded = await startEmbeddedPostgres(path.join(DATA_DIR, 'pg'), port, { ownSession: true });
    process.env.DATABASE_URL = embedded.url;
    log.info({ port, dataDir: path.join(DATA_DIR, 'pg') }, 'embedded PostgreSQL started');
  }
  process.env.SESSION_SECRET ??= sessionSecret();
  process.env.ONRECO_OUTBOX_DIR ??= path.join(DATA_DIR, 'outbox');
  // Its supervisor once the database is ready; a stop signal before that stops only PostgreSQL.
  const children: { supervisor?: Supervisor } = {};
  let stopping = false;
  const stop = async (code: number, signal: NodeJS.Signals = 'SIGTERM') => {
    if (stopping) return;
    stopping = true;
    await children.supervisor?.stop(signal);
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
  if (stopping) return;
  children.supervisor = superviseChildren(consoleChildren(seededAt), log);
  void children.supervisor.gaveUp.then((code) => stop(code));
}

/**
 * The console's processes: the web server, two worker lanes (report rendering never holds up
 * alert mails, app/jobs/worker.server.ts) of WORKER_CONCURRENCY processes each, which share the
 * work through the database (decision 184), and on the demo chain its simulated gateways, which
 * the console runs on without.
 */
function consoleChildren(seededAt: Date | null): SupervisedChild[] {
  const web: SupervisedChild = {
    name: 'web',
    start: () =>
      dev
        ? spawn('npx', ['remix', 'dev'], { stdio: 'inherit' })
        : spawn(process.execPath, ['--import', 'tsx', 'scripts/server.ts'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } }),
  };
  const workers = (['alerts', 'reports'] as const).flatMap((lane) =>
    Array.from({ length: getEnv().WORKER_CONCURRENCY }, (_, index): SupervisedChild => ({
      name: `worker:${lane}:${index + 1}`,
      start: () => spawn(process.execPath, [...WORKER_NODE_FLAGS[lane], '--import', 'tsx', 'scripts/worker.ts', lane], { stdio: 'inherit' }),
    })),
  );
  const simulator: SupervisedChild[] =
    seededAt && getEnv().ONRECO_SIMULATOR
      ? [{ name: 'simulator', restart: false, start: () => spawn(process.execPath, ['--import', 'tsx', 'scripts/simulator.ts', seededAt.toISOString()], { stdio: 'inherit' }) }]
      : [];
  return [web, ...workers, ...simulator];
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
      log.info({ days }, `seeding the demo chain: ${days} days of one-minute readings (the default 7: a few minutes, about 2.4 GB in .data)`);
      const onProgress = seedProgressLines((line) => log.info(line));
      const summary = await seedDemoChain(db, { days, password: getEnv().ONRECO_DEMO_PASSWORD ?? DEMO_DEFAULT_PASSWORD, now, onProgress });
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
  // The remix compiler loads Vite's CJS entry, whose deprecation notice is not ours to act on.
  const { status } = spawnSync(path.resolve('node_modules/.bin/remix'), ['build'], { stdio: 'inherit', env: { ...process.env, VITE_CJS_IGNORE_WARNING: '1' } });
  if (status !== 0) throw new Error('remix build failed');
}

main().catch((error) => {
  log.fatal({ err: error }, 'the console could not start');
  process.exit(1);
});
