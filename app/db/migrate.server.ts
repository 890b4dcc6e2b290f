import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrations } from '../../migrations';

// Branches developed side by side add migrations whose names interleave; each is independent of the
// others' tables, so a database that ran a later-named one first still takes an earlier-named one.
const migratorOf = (db: Kysely<any>) =>
  new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });

/** Runs every pending migration and returns the names it ran; throws with the failing one's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await migratorOf(db).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** Every migration of this version, in order, with when it ran (null: pending). */
export async function migrationStatus(db: Kysely<any>): Promise<{ name: string; executedAt: Date | null }[]> {
  const infos = await migratorOf(db).getMigrations();
  return infos.map((info) => ({ name: info.name, executedAt: info.executedAt ?? null }));
}
