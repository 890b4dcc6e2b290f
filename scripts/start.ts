// `npm start`: PostgreSQL (embedded unless DATABASE_URL is set), migrations, the demo chain
// into an empty database, a build when the sources changed, then the web server and the
// worker. Ctrl-C stops them and PostgreSQL cleanly.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDb } from '../app/db/db.server';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../app/db/embedded-postgres.server';
import { migrateToLatest } from '../app/db/migrate.server';
import { ensureMeasurementPartitions } from '../app/models/measurement-partitions.server';
import { DEMO_DEFAULT_PASSWORD } from '../app/domain/demo';
import { isDatabaseEmpty, seedDemoChain } from '../app/services/demo-seed.server';
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
  const children: ChildProcess[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
    // A process that has not exited 5 s later (an open event stream keeps the web server busy) is killed.
    const force = setTimeout(() => children.forEach((child) => child.kill('SIGKILL')), 5000);
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((done) => child.once('exit', done)) : null)));
    clearTimeout(force);
    if (embedded) await embedded.stop().catch((error) => log.error({ err: error }, 'PostgreSQL did not stop cleanly'));
    log.info('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  await prepareDatabase(process.env.DATABASE_URL, embedded !== undefined || process.env.ONRECO_DEMO === '1');
  if (!dev) buildIfNeeded();
  const web = dev
    ? spawn('npx', ['remix', 'dev'], { stdio: 'inherit' })
    : spawn(process.execPath, [path.resolve('node_modules/@remix-run/serve/dist/cli.js'), 'build/index.js'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  const worker = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], { stdio: 'inherit' });
  for (const child of [web, worker]) {
    children.push(child);
    child.once('exit', (code) => {
      if (!stopping) log.error({ code }, 'a process of the console stopped; stopping the others');
      void stop(code ?? 1);
    });
  }
}

async function prepareDatabase(url: string, demo: boolean) {
  const db = createDb(url, 4);
  try {
    await migrateToLatest(db);
    const now = new Date();
    await ensureMeasurementPartitions(db, new Date(now.getTime() - 40 * 86400_000), new Date(now.getTime() + 62 * 86400_000));
    if (demo && (await isDatabaseEmpty(db))) {
      const days = Number(process.env.ONRECO_DEMO_DAYS ?? 7);
      const started = Date.now();
      const summary = await seedDemoChain(db, { days, password: process.env.ONRECO_DEMO_PASSWORD ?? DEMO_DEFAULT_PASSWORD, now });
      log.info({ ...summary, seconds: (Date.now() - started) / 1000 }, 'demo chain seeded');
    }
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
