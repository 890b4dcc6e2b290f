import { sql } from 'kysely';
import type { Db } from '~/db/db.server';

/**
 * Runs `work` while holding the session advisory lock named `name` on one pooled connection, so
 * two workers (or two overlapping runs) never do it at once: when the lock is taken elsewhere,
 * returns false at once without running it.
 */
export async function withJobLock(db: Db, name: string, work: () => Promise<void>): Promise<boolean> {
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtext(${name})) as locked`.execute(connection);
    if (!rows[0]?.locked) return false;
    try {
      await work();
      return true;
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${name}))`.execute(connection);
    }
  });
}
