import { sql } from 'kysely';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb } from '~/db/db.server';
import { startWorker } from '~/jobs/worker.server';
import { recordWorkerBeat } from '~/models/worker-heartbeats.server';
import { checkReadiness } from '~/services/readiness.server';
import { loader as healthz } from '~/routes/healthz';
import { loader as readyz } from '~/routes/readyz';
import { resetDb, testDb } from '../support/db';

// /healthz and /readyz (docs/decisions/211-health-and-readiness.md) on the real database, with
// workers started in this process as scripts/worker.ts starts them (their own pools).

const db = testDb();
beforeEach(() => resetDb());
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

const readyzAnswer = async () => {
  const response = (await readyz()) as Response;
  return { status: response.status, body: (await response.json()) as { ready: boolean; reasons: string[] } };
};

function worker(lane: 'alerts' | 'reports') {
  // Only the heartbeat is under test: the lane's jobs would work on the emptied tables meanwhile.
  const running = startWorker([], createDb(process.env.DATABASE_URL!, 2), lane);
  stops.push(() => running.stop());
  return running;
}

describe('/healthz', () => {
  it('answers 200 with the process id, without the database', async () => {
    const response = healthz();
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', pid: process.pid });
  });
});

describe('/readyz', () => {
  it('is red while no worker runs, green once both lanes beat, red again with the reason when the reports worker stops, green when it is back', async () => {
    expect(await readyzAnswer()).toEqual({ status: 503, body: { ready: false, reasons: ['no alerts worker is running', 'no reports worker is running'] } });
    const alerts = worker('alerts');
    let reports = worker('reports');
    await expect.poll(async () => (await readyzAnswer()).status, { timeout: 5000 }).toBe(200);
    expect((await readyzAnswer()).body).toEqual({ ready: true, reasons: [] });
    await reports.stop();
    expect(await readyzAnswer()).toEqual({ status: 503, body: { ready: false, reasons: ['no reports worker is running'] } });
    reports = worker('reports');
    await expect.poll(async () => (await readyzAnswer()).status, { timeout: 5000 }).toBe(200);
    await Promise.all([alerts.stop(), reports.stop()]);
  });

  it('names a lane whose worker stopped beating without stopping (killed, hung)', async () => {
    const now = new Date('2026-11-28T03:00:00Z');
    await recordWorkerBeat(db, { worker: 'host:1', lane: 'alerts', startedAt: now, now });
    await recordWorkerBeat(db, { worker: 'host:2', lane: 'reports', startedAt: now, now: new Date(now.getTime() - 45_000) });
    expect(await checkReadiness(db, now, 30_000)).toEqual({ ready: false, reasons: ['the reports worker has not beaten for 45 s'] });
    // A second reports worker that beats keeps the lane served.
    await recordWorkerBeat(db, { worker: 'host:3', lane: 'reports', startedAt: now, now });
    expect(await checkReadiness(db, now, 30_000)).toEqual({ ready: true, reasons: [] });
  });

  it('takes a worker of lane all for both lanes', async () => {
    const now = new Date();
    await recordWorkerBeat(db, { worker: 'host:1', lane: 'all', startedAt: now, now });
    expect(await checkReadiness(db, now, 30_000)).toEqual({ ready: true, reasons: [] });
  });

  it('is red with the migration named when one has not run', async () => {
    const now = new Date();
    await recordWorkerBeat(db, { worker: 'host:1', lane: 'all', startedAt: now, now });
    const [last] = await db.selectFrom('kysely_migration' as never).select(sql<string>`name`.as('name')).orderBy(sql`timestamp`, 'desc').limit(1).execute();
    await sql`delete from kysely_migration where name = ${last.name}`.execute(db);
    try {
      expect(await checkReadiness(db, now, 30_000)).toEqual({ ready: false, reasons: [`migrations pending: ${last.name}`] });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${last.name}, ${new Date().toISOString()})`.execute(db);
    }
  });

  it('is red when the database does not answer', async () => {
    const unreachable = createDb('postgres://postgres@127.0.0.1:1/none', 1);
    try {
      const readiness = await checkReadiness(unreachable, new Date(), 30_000);
      expect(readiness.ready).toBe(false);
      expect(readiness.reasons[0]).toMatch(/^database unreachable: /);
    } finally {
      await unreachable.destroy();
    }
  });
});
