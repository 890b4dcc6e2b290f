import type { Logger } from 'pino';
import type { Db } from '~/db/db.server';

// A periodic job: one module each in app/jobs/, run by the worker (worker.server.ts) on its
// cron schedule: each scheduled moment (tick) once across all workers, or, for a queue, by every
// worker side by side.

export interface JobContext {
  db: Db;
  /** The time of the run: jobs never read the clock themselves, so tests give theirs. */
  now: Date;
  log: Logger;
}

export interface Job {
  name: string;
  /** node-cron expression (six fields: with seconds). */
  schedule: string;
  /** Also run once when the worker starts (catch-up of what was missed while it was down). */
  runOnStart?: boolean;
  /**
   * It drains a durable queue whose rows are claimed FOR UPDATE SKIP LOCKED (the mail outbox,
   * the report jobs): every worker runs it on every tick, so more workers drain it faster.
   */
  queue?: boolean;
  run(context: JobContext): Promise<void>;
}
