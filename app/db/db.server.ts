import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { logger } from '~/services/logger.server';
import type { Database } from './schema';

// pg hands back int8 and numeric as strings and date as a local-midnight Date: set the
// parsers on purpose. Our counts fit in a double; dates stay 'YYYY-MM-DD' text.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export type Db = Kysely<Database>;

export function createDb(connectionString: string, max = 10): Db {
  // allowExitOnIdle: idle connections do not keep a stopping process (the web server after
  // SIGTERM, a script) alive.
  const pool = new pg.Pool({ connectionString, max, allowExitOnIdle: true });
  // An idle connection that PostgreSQL closes (a restart, a shutdown) is dropped from the pool
  // and replaced on the next query; without a listener the error would end the process.
  pool.on('error', (error) => logger.warn(closedConnection(error), 'an idle database connection was closed'));
  // A checked-out connection between two queries (a worker's transaction while it renders a
  // report) has no pool listener: PostgreSQL's shutdown (Ctrl-C reaches it too) would end the
  // process with an unhandled 'error'. The connection's next query fails instead, and is handled.
  pool.on('connect', (client) => client.on('error', (error) => logger.warn(closedConnection(error), 'a database connection in use was closed')));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

/** What a closed connection's error says, without the client pg attaches to it (its whole state, with the connection's settings). */
function closedConnection(error: Error & { code?: string }): { reason: string; code?: string } {
  return { reason: error.message, code: error.code };
}

const pools = new WeakMap<Db, pg.Pool>();

/** The pool under a Db, for a library that speaks to PostgreSQL itself (the request limits). */
export function poolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('not a Db made by createDb');
  return pool;
}

let shared: Db | undefined;

/** The process-wide database, from DATABASE_URL (set by scripts/start.ts for the embedded one). */
export function getDb(): Db {
  if (!shared) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: start the app with `npm start`.');
    shared = createDb(url);
  }
  return shared;
}

/** Ends the process-wide database's pool when it was opened (a script or bench that used getDb). */
export async function closeSharedDb(): Promise<void> {
  const open = shared;
  shared = undefined;
  await open?.destroy();
}
