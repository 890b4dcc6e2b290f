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
import { regularReportsJob, reportJobsJob } from './reports.server';
import { gatewayHealthPurgeJob } from './gateway-health-purge.server';
import { auditChainJob } from './audit-chain.server';

// The worker process's runner (scripts/worker.ts starts it): each job on its cron schedule.

const log = logger.child({ module: 'worker' });

export const JOBS: readonly Job[] = [measurementPartitionsJob, pinExpiryJob, noCommunicationJob, mailOutboxJob, requestLimitsJob, regularReportsJob, reportJobsJob, gatewayHealthPurgeJob, auditChainJob];

/**
 * The worker's lanes, one process each under `npm start`: rendering a report takes seconds of CPU
 * on the event loop, and an alert mail or a no-communication check must never wait behind it.
 * `all` (one process, the default of scripts/worker.ts) is for tests and small installations.
 */
export const WORKER_LANES = {
  all: JOBS,
  alerts: JOBS.filter((job) => job !== reportJobsJob),
  reports: [reportJobsJob],
} as const satisfies Record<string, readonly Job[]>;

export type WorkerLane = keyof typeof WORKER_LANES;

export const isWorkerLane = (value: string): value is WorkerLane => Object.hasOwn(WORKER_LANES, value);

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
  for (const job of jobs.filter((candidate) => candidate.runOnStart)) {
    runExclusive(db, job, new Date()).catch((error) => log.error({ err: error, job: job.name }, 'job failed'));
  }
  log.info({ jobs: jobs.map((job) => job.name) }, 'worker started');
  return {
    async stop() {
      for (const task of tasks) task.stop();
      await db.destroy();
    },
  };
}
