// Runs the pending migrations against DATABASE_URL and exits: the first step of an upgrade
// (docs/operations.md; deploy/onreco-migrate.service), before the web server and workers start.
import { createDb } from '../app/db/db.server';
import { migrateToLatest } from '../app/db/migrate.server';
import { getEnv } from '../app/env.server';
import { logger } from '../app/services/logger.server';

const url = getEnv().DATABASE_URL;
if (!url) {
  logger.fatal('DATABASE_URL is not set');
  process.exit(2);
}
const db = createDb(url, 1);
try {
  const ran = await migrateToLatest(db);
  logger.info({ migrations: ran }, ran.length > 0 ? 'migrations ran' : 'no migration pending');
} catch (error) {
  logger.fatal({ err: error }, 'migration failed');
  process.exitCode = 1;
} finally {
  await db.destroy();
}
