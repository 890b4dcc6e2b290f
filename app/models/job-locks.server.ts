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

/**
 * Writes the (job, tick) row for `worker`; false when the tick was run already. A row without
 * finished_at is a run that died with its worker: it is taken over. Call it under the job's lock
 * (withJobLock), so that such a row can only be a dead run, never one still going.
 */
export async function claimTick(db: Db, job: string, tick: Date, worker: string): Promise<boolean> {
  const row = await db
    .insertInto('job_runs')
    .values({ job, tick, worker })
    .onConflict((oc) =>
      oc
        .columns(['job', 'tick'])
        .doUpdateSet({ worker, started_at: sql<Date>`now()` })
        .where('job_runs.finished_at', 'is', null),
    )
    .returning('job')
    .executeTakeFirst();
  return row !== undefined;
}

export async function finishTick(db: Db, job: string, tick: Date): Promise<void> {
  await db.updateTable('job_runs').set({ finished_at: sql<Date>`now()` }).where('job', '=', job).where('tick', '=', tick).execute();
}

/** Removes the ticks before `before` (their record is only needed while a worker may still come to them). */
export async function deleteJobRunsBefore(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('job_runs').where('tick', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
