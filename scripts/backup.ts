// Backs up and restores the console's database (decision 214, docs/operations-backup.md):
//   npx tsx scripts/backup.ts backup FILE     pg_dump --format=custom of DATABASE_URL into FILE
//   npx tsx scripts/backup.ts restore FILE    pg_restore of FILE into DATABASE_URL (an existing, empty database)
// PG_BIN names the directory of the pg_dump/pg_restore to use (default: the ones on PATH).
// `backup FILE --snapshot ID` dumps an exported snapshot (pg_export_snapshot) instead of a new one.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import type pg from 'pg';
import { withConnection } from '../app/db/single-connection.server';

class Refusal extends Error {}

/** The major version of a PostgreSQL tool (`pg_dump (PostgreSQL) 15.20 (Debian …)` → 15). */
function toolMajor(tool: string): number {
  const out = execFileSync(tool, ['--version'], { encoding: 'utf8' });
  const match = out.match(/\(PostgreSQL\)\s+(\d+)/);
  if (!match) throw new Refusal(`cannot read the version of ${tool}: ${out.trim()}`);
  return Number(match[1]);
}

const serverMajor = (client: pg.Client) => client.query<{ server_version_num: string }>('show server_version_num').then((r) => Math.floor(Number(r.rows[0].server_version_num) / 10000));

/** An older pg_dump cannot read a newer server's catalogue (and its dump would not restore there): refuse before starting. */
function requireToolNotOlder(tool: string, server: number): void {
  const major = toolMajor(tool);
  if (major < server) throw new Refusal(`${path.basename(tool)} is PostgreSQL ${major}, the server is PostgreSQL ${server}: use a ${path.basename(tool)} of version ${server} or newer (PG_BIN=/usr/lib/postgresql/${server}/bin)`);
}

function run(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Refusal(`${path.basename(tool)} failed (${signal ?? code})`))));
  });
}

async function backup(url: string, file: string, snapshot?: string): Promise<void> {
  const tool = path.join(process.env.PG_BIN ?? '', 'pg_dump');
  requireToolNotOlder(tool, await withConnection(url, serverMajor));
  await run(tool, ['--format=custom', '--no-owner', `--file=${file}`, ...(snapshot ? [`--snapshot=${snapshot}`] : []), `--dbname=${url}`]);
}

async function restore(url: string, file: string): Promise<void> {
  const tool = path.join(process.env.PG_BIN ?? '', 'pg_restore');
  // Into an empty database only: restoring over a live console's tables would mix two histories.
  const { server, tables } = await withConnection(url, async (client) => ({
    server: await serverMajor(client),
    tables: Number((await client.query<{ n: string }>(`select count(*) as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`)).rows[0].n),
  }));
  requireToolNotOlder(tool, server);
  if (tables > 0) throw new Refusal(`the database of DATABASE_URL already has ${tables} tables: restore into a new, empty database (createdb)`);
  await run(tool, ['--no-owner', '--exit-on-error', `--dbname=${url}`, file]);
}

async function main(): Promise<void> {
  const [command, file, ...rest] = process.argv.slice(2);
  const url = process.env.DATABASE_URL;
  if (!url) throw new Refusal('DATABASE_URL is not set');
  if (!file || (command !== 'backup' && command !== 'restore')) throw new Refusal('usage: scripts/backup.ts backup|restore FILE [--snapshot ID]');
  if (command === 'backup') {
    const at = rest.indexOf('--snapshot');
    await backup(url, file, at >= 0 ? rest[at + 1] : undefined);
  } else await restore(url, file);
  console.log(`${command} done: ${file}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Refusal ? `refused: ${error.message}` : error);
  process.exitCode = error instanceof Refusal ? 2 : 1;
});
