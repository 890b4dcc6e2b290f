import { hostname } from 'node:os';
import cron, { type ScheduledTask } from 'node-cron';
import { type Db, getDb } from '~/db/db.server';
import { claimTick, finishTick, withJobLock } from '~/models/job-locks.server';
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
import { measurementRetentionJob } from './retention.server';
import { jobRunsCleanupJob } from './job-runs-cleanup.server';

// The worker process's runner (scripts/worker.ts starts it): each job on its cron schedule.

const log = logger.child({ module: 'worker' });

export const JOBS: readonly Job[] = [
  measurementPartitionsJob, pinExpiryJob, noCommunicationJob, mailOutboxJob, requestLimitsJob, regularReportsJob, reportJobsJob, gatewayHealthPurgeJob, auditChainJob,
  measurementRetentionJob, jobRunsCleanupJob,
];

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

/** How long a stopping worker waits for its runs: well inside the 10 s scripts/start.ts gives it. */
const STOP_WAIT_MS = 5000;

/** The worker in job_runs: its host and process. */
const WORKER_ID = `${hostname()}:${process.pid}`;

/**
 * Runs a job's tick (its scheduled moment; `now` by default) once across all workers: under the
 * job's advisory lock (two runs of one job never overlap) the worker writes the (job, tick) row
 * first, and a tick that has its row already, because another worker ran it, is skipped; so is a
 * tick that comes while another worker still runs the job. A queue runs on every worker, its rows
 * claimed one by one (Job.queue). Returns whether it ran.
 */
export async function runExclusive(db: Db, job: Job, now: Date, tick: Date = now): Promise<boolean> {
  const context = { db, now, log: log.child({ job: job.name }) };
  if (job.queue) {
    await job.run(context);
    return true;
  }
  let ran = false;
  await withJobLock(db, job.name, async () => {
    if (!(await claimTick(db, job.name, tick, WORKER_ID))) return;
    await job.run(context);
    await finishTick(db, job.name, tick);
    ran = true;
  });
  return ran;
}

/** The schedule's latest moment at or before `now` (searched a day back; else `now` to the second). */
export function latestTick(task: ScheduledTask, now: Date): Date {
  const second = Math.floor(now.getTime() / 1000) * 1000;
  for (let back = 0; back < 86_400; back++) {
    const tick = new Date(second - back * 1000);
    if (task.match(tick)) return tick;
  }
  return new Date(second);
}

export function startWorker(jobs: readonly Job[] = JOBS, db: Db = getDb()) {
  // A run still going in this process when its next tick comes: that tick is skipped here.
  const running = new Map<Job, Promise<void>>();
  const run = (job: Job, tick: Date) => {
    if (running.has(job)) return;
    const going = runExclusive(db, job, new Date(), tick)
      .then(() => undefined)
      .catch((error) => log.error({ err: error, job: job.name }, 'job failed'))
      .finally(() => running.delete(job));
    running.set(job, going);
  };
  // A tick late by up to 10 s (a busy event loop, a loaded machine) still runs: its claim, not the
  // clock, decides whether it was run already (node-cron would drop it after 1 s).
  const tasks = jobs.map((job) => ({ job, task: cron.schedule(job.schedule, (context) => run(job, context.date), { missedExecutionTolerance: job.queue ? undefined : 10_000 }) }));
  // The catch-up: the latest tick of each such job, unless a worker ran it already.
  for (const { job, task } of tasks.filter((candidate) => candidate.job.runOnStart)) run(job, latestTick(task, new Date()));
  log.info({ jobs: jobs.map((job) => job.name), worker: WORKER_ID }, 'worker started');
  return {
    /**
     * No new run starts; the runs going get STOP_WAIT_MS to finish (a tick cut would wait for a
     * catch-up). A queue's run may go on longer: cut, its claimed row rolls back to the others.
     */
    async stop() {
      for (const { task } of tasks) await task.stop();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(running.values()), new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
      clearTimeout(timer);
      await db.destroy();
    },
  };
}
