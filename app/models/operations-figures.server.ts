import { sql } from 'kysely';
import type { Db } from '~/db/db.server';

// The queue and job figures /metrics reports (app/services/metrics.server.ts), read at each scrape.
// Each is one aggregate over a partial index's worth of rows: unsent mails and pending reports are
// few in normal running.

export interface QueueFigures {
  /** Mails not sent yet, and the age of the oldest (seconds; 0 when none). */
  outboxDepth: number;
  outboxOldestSeconds: number;
  /** Reports waiting to be made (作成中). */
  reportQueueDepth: number;
  reportQueueOldestSeconds: number;
}

export async function getQueueFigures(db: Db, now: Date): Promise<QueueFigures> {
  const [outbox, reports] = await Promise.all([
    db
      .selectFrom('mail_outbox')
      .select([sql<number>`count(*)`.as('depth'), sql<Date | null>`min(created_at)`.as('oldest')])
      .where('sent_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('report_history')
      .select([sql<number>`count(*)`.as('depth'), sql<Date | null>`min(create_datetime)`.as('oldest')])
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow(),
  ]);
  const age = (oldest: Date | null) => (oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0);
  return { outboxDepth: Number(outbox.depth), outboxOldestSeconds: age(outbox.oldest), reportQueueDepth: Number(reports.depth), reportQueueOldestSeconds: age(reports.oldest) };
}

export interface JobTickFigures {
  job: string;
  /** Ticks finished in the last hour. */
  ticksLastHour: number;
  /** The latest finished tick (null: none on record). */
  lastFinished: Date | null;
}

export async function listJobTickFigures(db: Db, now: Date): Promise<JobTickFigures[]> {
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const rows = await db
    .selectFrom('job_runs')
    .select(['job', sql<number>`count(*) filter (where finished_at >= ${hourAgo})`.as('ticks'), sql<Date | null>`max(finished_at)`.as('last_finished')])
    .groupBy('job')
    .orderBy('job')
    .execute();
  return rows.map((row) => ({ job: row.job, ticksLastHour: Number(row.ticks), lastFinished: row.last_finished }));
}
