import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { withConnection } from '../../app/db/single-connection.server';
import { seedDemoChain } from '../../app/demo/seed.server';
import { DEMO_DEFAULT_PASSWORD } from '../../app/domain/demo';
import { toCompactDateTime } from '../../app/domain/japan-time';
import { ingestReadings } from '../../app/services/ingest.server';
import { ensureConsoleBuild } from '../support/console-build';
import { freePort } from '../support/ports';
import { stopProcess, waitUntil } from '../support/processes';

// Issue 24 (decision 214, docs/operations-backup.md): scripts/backup.ts backs a console's database
// up while gateway readings keep coming in through the real ingest service, restores it into a
// new database, and the console starts on the restore. pg_dump runs on an exported snapshot whose
// row counts this test takes inside that same snapshot, so the restore must hold exactly those
// rows, while the source goes on growing. Runs on the PostgreSQL at 127.0.0.1:5432 (or
// ONRECO_BACKUP_TEST_SERVER): its own databases, uniquely named, dropped after.

/** Days of demo history: 1 in the suite; the figure is 7 (ONRECO_BACKUP_TEST_DAYS=7). */
const DAYS = Number(process.env.ONRECO_BACKUP_TEST_DAYS ?? 1);
const SERVER = process.env.ONRECO_BACKUP_TEST_SERVER ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAME = `onreco_backup_${process.pid}_${Date.now()}`;
const urlOf = (name: string) => {
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
};
const SOURCE = urlOf(NAME);
const RESTORED = urlOf(`${NAME}_restored`);

const admin = <T>(task: (client: pg.Client) => Promise<T>) => withConnection(SERVER, task);

/** Why this machine cannot run the test (no server, or one newer than the local pg_dump), or null. */
async function skipReason(): Promise<string | null> {
  let server: number;
  try {
    server = await admin(async (client) => Math.floor(Number((await client.query('show server_version_num')).rows[0].server_version_num) / 10000));
  } catch (error) {
    return `no PostgreSQL at ${SERVER} (${(error as Error).message})`;
  }
  const dump = Number(execFileSync('pg_dump', ['--version'], { encoding: 'utf8' }).match(/\(PostgreSQL\)\s+(\d+)/)?.[1] ?? 0);
  return dump < server ? `the server at ${SERVER} is PostgreSQL ${server}, the local pg_dump is ${dump}` : null;
}

const skip = await skipReason();
if (skip) console.warn(`backup-restore skipped: ${skip}`);

/** Rows of every table (partitions and their parent alike) as `client` sees them: its snapshot. */
async function rowCounts(client: pg.Client): Promise<Record<string, number>> {
  const { rows: tables } = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = Number((await client.query(`select count(*) as n from ${name}`)).rows[0].n);
  return counts;
}

/** Rows of every table of the database at `url`, now. */
const countsOf = (url: string) => withConnection(url, rowCounts);

/** A script under scripts/ run as an operator runs it, against `databaseUrl`: its exit code and output. */
function runScript(script: string, args: string[], databaseUrl: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts', script), ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

let db: Db | undefined;
let server: ChildProcess | undefined;
const dir = mkdtempSync(path.join(tmpdir(), 'onreco-backup-'));

afterAll(async () => {
  if (server) await stopProcess(server);
  await db?.destroy();
  if (!skip) await admin(async (client) => {
    await client.query(`drop database if exists ${NAME} with (force)`);
    await client.query(`drop database if exists ${NAME}_restored with (force)`);
  });
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('backup and restore (scripts/backup.ts)', () => {
  it('a dump taken while readings come in restores into a database the console runs on, with the snapshot\'s rows and an intact audit chain', async () => {
    await admin((client) => client.query(`create database ${NAME}`));
    db = createDb(SOURCE, 4);
    await migrateToLatest(db);
    // Seeded up to 3 hours ago, so that the readings posted below (the last 3 hours) are new rows.
    const seededUntil = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 3 * 3600_000);
    await seedDemoChain(db, { days: DAYS, password: DEMO_DEFAULT_PASSWORD, now: seededUntil });
    const sensors = await db.selectFrom('sensors').select(['store_id', 'serial_no']).execute();
    const stores = [...new Set(sensors.map((sensor) => sensor.store_id))];

    // Ingest: every store's gateway posts a minute of its sensors' readings in turn, until stopped.
    let accepted = 0;
    let stop = false;
    const source = db;
    const ingest = (async () => {
      for (let minute = 1; minute < 180 && !stop; minute++) {
        const at = toCompactDateTime(new Date(seededUntil.getTime() + minute * 60_000));
        for (const storeId of stores) {
          if (stop) break;
          const readings = sensors.filter((sensor) => sensor.store_id === storeId).map((sensor) => ({ serial_no: sensor.serial_no, measured_at: at, temperature: 4.5, error: false, battery: 90, receive_sensitivity: -60 }));
          accepted += (await ingestReadings(source, storeId, readings, new Date())).accepted;
        }
      }
    })();
    await waitUntil(async () => accepted > 0, 30_000, 'the first readings stored');

    // The dump's snapshot, held open (and counted in) until pg_dump has read it.
    const snapshotClient = new pg.Client({ connectionString: SOURCE });
    await snapshotClient.connect();
    const file = path.join(dir, 'onreco.dump');
    let atSnapshot: Record<string, number>;
    let acceptedAtSnapshot: number;
    let acceptedAfterDump: number;
    let dumpSeconds = 0;
    try {
      await snapshotClient.query('begin isolation level repeatable read, read only');
      const snapshot = (await snapshotClient.query('select pg_export_snapshot() as id')).rows[0].id as string;
      acceptedAtSnapshot = accepted;
      atSnapshot = await rowCounts(snapshotClient);
      const dumpStarted = performance.now();
      const dumped = await runScript('backup.ts', ['backup', file, '--snapshot', snapshot], SOURCE);
      dumpSeconds = (performance.now() - dumpStarted) / 1000;
      expect(dumped.out).toContain('backup done');
      expect(dumped.code).toBe(0);
      acceptedAfterDump = accepted;
    } finally {
      await snapshotClient.end();
    }
    stop = true;
    await ingest;
    expect(statSync(file).size).toBeGreaterThan(0);
    // Ingest went on during the dump: the source holds rows the snapshot (and so the dump) does not.
    expect(acceptedAfterDump).toBeGreaterThan(acceptedAtSnapshot);
    const sourceNow = await countsOf(SOURCE);
    expect(sourceNow['public.measurements']).toBeGreaterThan(atSnapshot['public.measurements']);
    expect(atSnapshot['public.audit_log']).toBeGreaterThan(0);

    // Restore into a new database: into a non-empty one it refuses.
    const intoSource = await runScript('backup.ts', ['restore', file], SOURCE);
    expect(intoSource.code).toBe(2);
    expect(intoSource.out).toMatch(/refused: the database of DATABASE_URL already has \d+ tables/);
    await admin((client) => client.query(`create database ${NAME}_restored`));
    const restoreStarted = performance.now();
    const restored = await runScript('backup.ts', ['restore', file], RESTORED);
    const restoreSeconds = (performance.now() - restoreStarted) / 1000;
    expect(restored.out).toContain('restore done');
    expect(restored.code).toBe(0);

    expect(await countsOf(RESTORED)).toEqual(atSnapshot);
    console.log(JSON.stringify({ days: DAYS, measurements: atSnapshot['public.measurements'], auditRows: atSnapshot['public.audit_log'], readingsDuringDump: acceptedAfterDump - acceptedAtSnapshot, dumpBytes: statSync(file).size, dumpSeconds: Number(dumpSeconds.toFixed(1)), restoreSeconds: Number(restoreSeconds.toFixed(1)), loadavg: loadavg() }));

    // The audit chain walks whole on the restore (the operator's command, scripts/audit-verify.ts).
    const verified = await runScript('audit-verify.ts', [], RESTORED);
    expect(verified.code).toBe(0);
    const verification = JSON.parse(verified.out.trim().split('\n').at(-1)!) as { ok: boolean; checked: number };
    expect(verification).toMatchObject({ ok: true, checked: atSnapshot['public.audit_log'] });

    // The console on the restore: the test build, as the e2e suite serves it (global-server.ts).
    const build = await ensureConsoleBuild();
    const port = await freePort();
    server = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/server.ts'), build], {
      env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATABASE_URL: RESTORED, SESSION_SECRET: 'backup-session-secret-0123456789', LOG_LEVEL: 'error' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const base = `http://localhost:${port}`;
    await waitUntil(async () => fetch(`${base}/login`).then((r) => r.ok, () => false), 60_000, 'the console on the restore');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  }, 300_000 * DAYS);

  it('refuses, naming both versions, when pg_dump is older than the server', async () => {
    // A pg_dump of the version before the server's (PG_BIN picks the tools' directory): it must not run.
    const server = await admin(async (client) => Math.floor(Number((await client.query('show server_version_num')).rows[0].server_version_num) / 10000));
    const bin = path.join(dir, 'old-bin');
    rmSync(bin, { recursive: true, force: true });
    mkdirSync(bin, { recursive: true });
    const ran = path.join(dir, 'old-pg-dump-ran');
    writeFileSync(path.join(bin, 'pg_dump'), `#!/bin/sh\nif [ "$1" = --version ]; then echo "pg_dump (PostgreSQL) ${server - 1}.9"; else touch ${ran}; fi\n`);
    chmodSync(path.join(bin, 'pg_dump'), 0o755);
    const refused = await runScript('backup.ts', ['backup', path.join(dir, 'old.dump')], urlOf('postgres'), { PG_BIN: bin });
    expect(refused.code).toBe(2);
    expect(refused.out).toContain(`refused: pg_dump is PostgreSQL ${server - 1}, the server is PostgreSQL ${server}`);
    expect(existsSync(ran)).toBe(false);
  });
});
