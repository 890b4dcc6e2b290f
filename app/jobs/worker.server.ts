import { hostname } from 'node:os';
import cron, { type ScheduledTask } from 'node-cron';
import { type Db, getDb } from '~/db/db.server';
import { claimTick, finishTick, withJobLock } from '~/models/job-locks.server';
import { deleteWorkerHeartbeatsBefore, recordWorkerBeat, recordWorkerStopped } from '~/models/worker-heartbeats.server';
import { getEnv } from '~/env.server';
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
import { escalationJob } from './escalation.server';
import { webhookOutboxJob } from './webhook-outbox.server';
import { equipmentIndicatorsJob } from './equipment-indicators.server';

// The worker process's runner (scripts/worker.ts starts it): each job on its cron schedule.

const log = logger.child({ module: 'worker' });

export const JOBS: readonly Job[] = [
  measurementPartitionsJob, pinExpiryJob, noCommunicationJob, mailOutboxJob, requestLimitsJob, regularReportsJob, reportJobsJob, gatewayHealthPurgeJob, auditChainJob,
  measurementRetentionJob, jobRunsCleanupJob, escalationJob, webhookOutboxJob, equipmentIndicatorsJob,
];

/**
 * The worker's lanes, one process each under `npm start`: rendering a report takes seconds of CPU
 * on the event loop, and an alert mail or a no-communication check must never wait behind it.
 * `all` (one process, the default of scripts/worker.ts) is for tests and small installations.
 */
export const WORKER_LANES = {
  all: JOBS,
  // The night's batch reads (reports, the equipment indicators over every sensor's day) run in
  // the reports lane, so a long one never delays an alert's evaluation or its mail.
  alerts: JOBS.filter((job) => job !== reportJobsJob && job !== equipmentIndicatorsJob),
  reports: [reportJobsJob, equipmentIndicatorsJob],
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

/**
 * How often a worker writes its heartbeat: a third of the time after which /readyz calls it stale,
 * so one late beat (a busy event loop) does not turn readiness red.
 */
export const beatIntervalMs = (staleSeconds: number) => Math.min(5000, (staleSeconds * 1000) / 3);

/** The heartbeat (app/services/readiness.server.ts reads it): written at start and every beatIntervalMs. */
function startHeartbeat(db: Db, lane: string) {
  const startedAt = new Date();
  // With its lane: tests run workers of two lanes in one process.
  const worker = `${WORKER_ID}:${lane}`;
  const beat = () =>
    recordWorkerBeat(db, { worker, lane, startedAt, now: new Date() }).catch((error) => log.error({ err: error }, 'heartbeat failed'));
  void beat().then(() => deleteWorkerHeartbeatsBefore(db, new Date(Date.now() - 86_400_000)).catch((error) => log.error({ err: error }, 'heartbeat purge failed')));
  const timer = setInterval(() => void beat(), beatIntervalMs(getEnv().ONRECO_WORKER_STALE_SECONDS));
  return {
    async stop() {
      clearInterval(timer);
      await recordWorkerStopped(db, worker, new Date()).catch((error) => log.error({ err: error }, 'heartbeat stop failed'));
    },
  };
}

export function startWorker(jobs: readonly Job[] = JOBS, db: Db = getDb(), lane: WorkerLane = 'all') {
  const heartbeat = startHeartbeat(db, lane);
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
  // node-cron warns of a missed tick on the console unless it is listened for. A queue's tick
  // is a poll the next one makes up for (at start-up, while tsx compiles, a dozen are skipped);
  // a time-driven job's is worth a warning in our own log, with the job's name.
  for (const { job, task } of tasks) {
    task.on('execution:missed', (context) =>
      job.queue ? log.debug({ job: job.name, tick: context.date }, 'queue poll skipped') : log.warn({ job: job.name, tick: context.date }, 'scheduled run missed'),
    );
  }
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
      await heartbeat.stop();
      await db.destroy();
    },
  };
}
