import cron from 'node-cron';
import { type Db, getDb } from '~/db/db.server';
import { withJobLock } from '~/models/job-locks.server';
import { logger } from '~/services/logger.server';
import type { Job } from './job.server';
import { mailOutboxJob } from './mail-outbox.server';
import { measurementPartitionsJob } from './measurement-partitions.server';
import { noCommunicationJob } from './no-communication.server';
import { pinExpiryJob } from './pin-expiry.server';
import { requestLimitsJob } from './request-limits.server';

// The worker process's runner (scripts/worker.ts starts it): each job on its cron schedule.

const log = logger.child({ module: 'worker' });

export const JOBS: readonly Job[] = [measurementPartitionsJob, pinExpiryJob, noCommunicationJob, mailOutboxJob, requestLimitsJob];

/**
 * Runs a job under its advisory lock: two workers (or two overlapping runs) never run the same
 * job at once; the second simply skips. Returns whether it ran.
 */
export async function runExclusive(db: Db, job: Job, now: Date): Promise<boolean> {
  return withJobLock(db, job.name, () => job.run({ db, now, log: log.child({ job: job.name }) }));
}

export function startWorker(jobs: readonly Job[] = JOBS, db: Db = getDb()) {
  const tasks = jobs.map((job) =>
    cron.schedule(job.schedule, () => {
      runExclusive(db, job, new Date()).catch((error) => log.error({ err: error, job: job.name }, 'job failed'));
    }),
  );
  log.info({ jobs: jobs.map((job) => job.name) }, 'worker started');
  return {
    async stop() {
      for (const task of tasks) task.stop();
      await db.destroy();
    },
  };
}
