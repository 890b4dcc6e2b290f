import { type KyselyPlugin, sql } from 'kysely';
import { getDb, type Db } from '../../app/db/db.server';

export const REFERENCE_TABLES = new Set([
  'regions', 'prefectures', 'authorities', 'equipment_kinds', 'sensor_models', 'measure_target_equipment_kinds', 'corrective_actions',
  'kysely_migration', 'kysely_migration_lock',
]);

/** The suite's migrated database (global-db.ts, setup-env.ts): the same one the app's getDb() returns. */
export function testDb(): Db {
  return getDb();
}

/** Empties every table but the reference data, so each test starts from nothing. */
export async function resetDb(target: Db = testDb()): Promise<void> {
  const tables = await sql<{ tablename: string }>`
    select tablename from pg_tables where schemaname = 'public' and tablename not like 'measurements_%'`.execute(target);
  const names = tables.rows.map((row) => row.tablename).filter((name) => !REFERENCE_TABLES.has(name));
  await sql`truncate ${sql.join(names.map((name) => sql.table(name)))} restart identity cascade`.execute(target);
}

/** A handle on `target` that counts the statements run through it (Kysely's and raw sql alike). */
export function counted(target: Db): { db: Db; statements: () => number } {
  let statements = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      statements += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: target.withPlugin(plugin), statements: () => statements };
}
