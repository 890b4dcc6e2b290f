import type { TestProject } from 'vitest/node';
import { createDb } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { prepareTestDatabase } from './database';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

// One migrated database per test project: on the server of DATABASE_URL when set, else on
// an embedded PostgreSQL that this setup starts and stops.
export default async function setup(project: TestProject) {
  const database = await prepareTestDatabase(`onreco_${project.name.replaceAll('-', '_')}`);
  const db = createDb(database.url, 2);
  await migrateToLatest(db);
  await db.destroy();
  project.provide('databaseUrl', database.url);
  return () => database.release();
}
