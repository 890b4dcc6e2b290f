import cron from 'node-cron';
import { sql } from 'kysely';
import { getDb } from '~/db/db.server';
import { ensureMeasurementPartitions } from '~/models/measurement-partitions.server';
import { logger } from './logger.server';
import { sendPendingMails } from './outbox.server';
import { checkSilence } from './silence.server';

const log = logger.child({ module: 'worker' });

export interface Job {
  name: string;
  schedule: string; // cron expression
  run(now: Date): Promise<void>;
}

/** Partitions for this month and the next two exist before any reading needs them. */
export const partitionUpkeep: Job = {
  name: 'measurement partitions',
  schedule: '17 3 * * *',
  run: (now) => ensureMeasurementPartitions(getDb(), now, new Date(now.getTime() + 62 * 86400_000)),
};

/** Expired gateway PINs are removed, so the store management page offers a reissue. */
export const pinExpiry: Job = {
  name: 'PIN expiry',
  schedule: '* * * * *',
  run: async (now) => {
    await getDb().deleteFrom('gateway_pins').where('effective_time', '<=', now).execute();
  },
};

/**
 * No-communication and gateway-down alerts, and re-notification of silent sensors. Every 15 s
 * rather than every minute: a threshold that passes just after a run is then alerted (and
 * mailed) well inside the minute; the check is one indexed query.
 */
export const silenceCheck: Job = {
  name: 'no-communication check',
  schedule: '*/15 * * * * *',
  run: async (now) => {
    await checkSilence(getDb(), now);
  },
};

/** Mails leave within a second or two of the transaction that wrote them. */
export const outboxSender: Job = {
  name: 'mail outbox',
  schedule: '* * * * * *',
  run: async (now) => {
    await sendPendingMails(getDb(), now);
  },
};

export const JOBS: Job[] = [partitionUpkeep, pinExpiry, silenceCheck, outboxSender];

/**
 * Runs a job under a transaction-level advisory lock: two workers (or two overlapping runs)
 * never run the same job at once; the second simply skips.
 */
export async function runExclusive(job: Job, now: Date): Promise<boolean> {
  const db = getDb();
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtext(${job.name})) as locked`.execute(connection);
    if (!rows[0]?.locked) return false;
    try {
      await job.run(now);
      return true;
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${job.name}))`.execute(connection);
    }
  });
}

export function startWorker(jobs: Job[] = JOBS) {
  const tasks = jobs.map((job) =>
    cron.schedule(job.schedule, () => {
      runExclusive(job, new Date()).catch((error) => log.error({ err: error, job: job.name }, 'job failed'));
    }),
  );
  log.info({ jobs: jobs.map((job) => job.name) }, 'worker started');
  return {
    async stop() {
      for (const task of tasks) task.stop();
      await getDb().destroy();
    },
  };
}
