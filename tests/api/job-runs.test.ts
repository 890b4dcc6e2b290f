import cron from 'node-cron';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDb, type Db } from '~/db/db.server';
import type { Job } from '~/jobs/job.server';
import { latestTick, runExclusive, startWorker } from '~/jobs/worker.server';
import { waitUntil } from '../support/processes';
import { resetDb, testDb } from '../support/db';

// Each tick of a periodic job once across workers (docs/decisions/184-several-processes.md): two
// pools on the real database stand for two worker processes.

const db = testDb();
const second: Db = createDb(process.env.DATABASE_URL!, 4);
beforeEach(() => resetDb());
afterAll(() => second.destroy());

const TICK = new Date('2026-11-24T03:00:15Z');

/** A tick job that counts its runs; `hold` keeps a run going until it is resolved. */
function countingJob(name: string, options: { hold?: Promise<void>; queue?: boolean; runOnStart?: boolean; schedule?: string } = {}) {
  const job = {
    name,
    schedule: options.schedule ?? '*/15 * * * * *',
    queue: options.queue,
    runOnStart: options.runOnStart,
    runs: 0,
    run: async () => {
      job.runs += 1;
      await options.hold;
    },
  } satisfies Job & { runs: number };
  return job;
}

const runsOf = (job: string) => db.selectFrom('job_runs').select(['tick', 'worker', 'finished_at']).where('job', '=', job).orderBy('tick').execute();

describe('a periodic tick', () => {
  it('runs once when two workers come to it together', async () => {
    const job = countingJob('together');
    const ran = await Promise.all([runExclusive(db, job, TICK), runExclusive(second, job, TICK), runExclusive(db, job, TICK), runExclusive(second, job, TICK)]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(job.runs).toBe(1);
    const [row] = await runsOf('together');
    expect(row.tick).toEqual(TICK);
    expect(row.finished_at).not.toBeNull();
  });

  it('is not run again by a worker that comes to it after the first finished; the next tick runs', async () => {
    const job = countingJob('late');
    expect(await runExclusive(db, job, TICK)).toBe(true);
    // The other worker's cron fired late (its event loop was busy): same tick, later clock.
    expect(await runExclusive(second, job, new Date(TICK.getTime() + 4000), TICK)).toBe(false);
    expect(await runExclusive(second, job, new Date(TICK.getTime() + 15_000))).toBe(true);
    expect(job.runs).toBe(2);
    expect(await runsOf('late')).toHaveLength(2);
  });

  it('is skipped by a worker that comes to it while another still runs the job', async () => {
    let release!: () => void;
    const job = countingJob('overlap', { hold: new Promise((resolve) => (release = resolve)) });
    const first = runExclusive(db, job, TICK);
    await waitUntil(async () => job.runs === 1, 10_000, 'the first run');
    expect(await runExclusive(second, job, new Date(TICK.getTime() + 15_000))).toBe(false);
    release();
    expect(await first).toBe(true);
    expect((await runsOf('overlap')).map((row) => row.tick)).toEqual([TICK]);
  });

  it('whose run died with its worker is taken over by the next worker that comes to it', async () => {
    // What a worker killed with -9 mid-run leaves: its row without finished_at, its lock gone.
    await db.insertInto('job_runs').values({ job: 'died', tick: TICK, worker: 'gone:1' }).execute();
    const job = countingJob('died');
    expect(await runExclusive(second, job, TICK)).toBe(true);
    expect(job.runs).toBe(1);
    const [row] = await runsOf('died');
    expect(row.worker).not.toBe('gone:1');
    expect(row.finished_at).not.toBeNull();
    expect(await runExclusive(db, job, TICK)).toBe(false);
  });

  it('a failed run leaves its tick unfinished, so a later worker on that tick tries again', async () => {
    const job: Job = { name: 'fails', schedule: '* * * * *', run: () => Promise.reject(new Error('boom')) };
    await expect(runExclusive(db, job, TICK)).rejects.toThrow('boom');
    expect((await runsOf('fails'))[0].finished_at).toBeNull();
    const retry = countingJob('fails');
    expect(await runExclusive(second, retry, TICK)).toBe(true);
  });
});

describe('a queue', () => {
  it('runs on every worker at once (its rows are claimed one by one), and writes no tick', async () => {
    let release!: () => void;
    const job = countingJob('queue', { queue: true, hold: new Promise((resolve) => (release = resolve)) });
    const both = Promise.all([runExclusive(db, job, TICK), runExclusive(second, job, TICK)]);
    await waitUntil(async () => job.runs === 2, 10_000, 'both runs');
    release();
    expect(await both).toEqual([true, true]);
    expect(await runsOf('queue')).toHaveLength(0);
  });
});

describe('the schedule', () => {
  it('gives the latest tick at or before a moment', () => {
    const at = new Date('2026-11-24T03:07:37.400Z');
    const tick = (schedule: string) => {
      const task = cron.createTask(schedule, () => undefined);
      return latestTick(task, at).toISOString();
    };
    expect(tick('*/15 * * * * *')).toBe('2026-11-24T03:07:30.000Z');
    expect(tick('5 * * * * *')).toBe('2026-11-24T03:07:05.000Z');
    expect(tick('*/5 * * * *')).toBe('2026-11-24T03:05:00.000Z');
    expect(tick('* * * * * *')).toBe('2026-11-24T03:07:37.000Z');
  });

  it('the catch-up run of two workers starting together runs the latest tick once', async () => {
    // Daily, so no scheduled run comes during the test: only the catch-up of each start.
    const job = countingJob('catch-up', { runOnStart: true, schedule: '0 0 * * *' });
    const workers = [startWorker([job], createDb(process.env.DATABASE_URL!, 2)), startWorker([job], createDb(process.env.DATABASE_URL!, 2))];
    try {
      await waitUntil(async () => (await runsOf('catch-up')).some((row) => row.finished_at !== null), 20_000, 'the catch-up run');
    } finally {
      // Each worker's stop waits for its catch-up attempt: both have come and gone after it.
      await Promise.all(workers.map((worker) => worker.stop()));
    }
    expect(job.runs).toBe(1);
    expect(await runsOf('catch-up')).toHaveLength(1);
  });
});

describe('a tick missed while the event loop was busy', () => {
  it('is not warned of on the console for a queue (its next poll makes up for it)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const job = countingJob('queue-poll', { queue: true, schedule: '* * * * * *' });
    const worker = startWorker([job], createDb(process.env.DATABASE_URL!, 2));
    let warned: string[];
    try {
      await waitUntil(async () => job.runs > 0, 10_000, 'the first poll');
      // Busy for 3.5 s, as a worker is while tsx compiles at start-up: a few per-second ticks pass.
      const until = Date.now() + 3500;
      while (Date.now() < until);
      const polled = job.runs;
      await waitUntil(async () => job.runs > polled, 10_000, 'a poll after the busy spell');
    } finally {
      await worker.stop();
      warned = warn.mock.calls.map((call) => String(call[0]));
      warn.mockRestore();
    }
    expect(warned.filter((line) => line.includes('missed execution'))).toEqual([]);
  });
});
