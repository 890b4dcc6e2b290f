import { beforeEach, describe, expect, it } from 'vitest';
import { toCompactDateTime } from '~/domain/japan-time';
import { metricsAllowed } from '~/http/metrics-access.server';
import { recordWorkerBeat } from '~/models/worker-heartbeats.server';
import { loader } from '~/routes/metrics';
import { ingestReadings } from '~/services/ingest.server';
import { createSensor, createStore } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';

// GET /metrics (docs/decisions/212-metrics.md) on the real database: what an operator's alerts read.

const db = testDb();
beforeEach(() => resetDb());

async function scrape(): Promise<string> {
  const response = await loader({ request: new Request('http://localhost/metrics'), context: { clientAddress: '127.0.0.1' }, params: {} });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

/** The value of a sample line `name{labels} value` (labels as written by prom-client), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  it('reports the mail outbox and the report queue, with the age of their oldest row', async () => {
    await createStore(db, 'M1');
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    await db.insertInto('mail_outbox').values([
      { to_address: 'a@example.com', subject: 's', body: 'b', store_id: 'M1', created_at: tenMinutesAgo, send_after: tenMinutesAgo },
      { to_address: 'b@example.com', subject: 's', body: 'b', store_id: 'M1' },
      { to_address: 'c@example.com', subject: 's', body: 'b', store_id: 'M1', sent_at: new Date() },
    ]).execute();
    const text = await scrape();
    expect(sample(text, 'onreco_outbox_depth')).toBe(2);
    expect(sample(text, 'onreco_outbox_oldest_seconds')).toBeGreaterThanOrEqual(599);
    expect(sample(text, 'onreco_report_queue_depth')).toBe(0);
    expect(sample(text, 'onreco_report_queue_oldest_seconds')).toBe(0);
  });

  it('counts the readings a batch stored, its duplicates and rejections, and its lag', async () => {
    await createStore(db, 'M1');
    await createSensor(db, 'M1', 'AA:BB:CC:DD:EE:01');
    const before = await scrape();
    const accepted0 = sample(before, 'onreco_ingest_readings_total{outcome="accepted"}') ?? 0;
    const lagCount0 = sample(before, 'onreco_ingest_lag_seconds_count') ?? 0;
    const now = new Date();
    const twoMinutesAgo = toCompactDateTime(new Date(Math.floor(now.getTime() / 60_000) * 60_000 - 120_000));
    const reading = { serial_no: 'AA:BB:CC:DD:EE:01', measured_at: twoMinutesAgo, temperature: 3.5, error: false, battery: 80, receive_sensitivity: -70 };
    await ingestReadings(db, 'M1', [reading, reading, { ...reading, serial_no: 'AA:BB:CC:DD:EE:99' }], now);
    const after = await scrape();
    expect(sample(after, 'onreco_ingest_readings_total{outcome="accepted"}')).toBe(accepted0 + 1);
    expect(sample(after, 'onreco_ingest_lag_seconds_count')).toBe(lagCount0 + 1);
    // The batch's newest reading was 2-3 minutes old: counted in the 300 s bucket, not the 60 s one.
    expect((sample(after, 'onreco_ingest_lag_seconds_bucket{le="300"}') ?? 0) - (sample(before, 'onreco_ingest_lag_seconds_bucket{le="300"}') ?? 0)).toBe(1);
    expect((sample(after, 'onreco_ingest_lag_seconds_bucket{le="60"}') ?? 0) - (sample(before, 'onreco_ingest_lag_seconds_bucket{le="60"}') ?? 0)).toBe(0);
    expect(after).toMatch(/^onreco_ingest_readings_total\{outcome="rejected"\} \d+$/m);
  });

  it('reports each worker lane\'s heartbeat age and its starts (restarts show as more starts than workers)', async () => {
    const now = new Date();
    await recordWorkerBeat(db, { worker: 'h:1:reports', lane: 'reports', startedAt: new Date(now.getTime() - 60_000), now: new Date(now.getTime() - 40_000) });
    await recordWorkerBeat(db, { worker: 'h:2:reports', lane: 'reports', startedAt: now, now });
    const text = await scrape();
    expect(sample(text, 'onreco_worker_starts_24h{lane="reports"}')).toBe(2);
    // The newest beat's age (the other is 40 s old), with room for a loaded machine's scrape.
    expect(sample(text, 'onreco_worker_heartbeat_age_seconds{lane="reports"}')).toBeLessThan(30);
  });

  it('reports job ticks from the job runs', async () => {
    const finished = new Date(Date.now() - 30_000);
    await db.insertInto('job_runs').values([
      { job: 'mail-outbox', tick: new Date(finished.getTime() - 1000), worker: 'h:1', finished_at: finished },
      { job: 'mail-outbox', tick: new Date(finished.getTime() - 2000), worker: 'h:1', finished_at: new Date(finished.getTime() - 1500) },
    ]).execute();
    const text = await scrape();
    expect(sample(text, 'onreco_job_ticks_last_hour{job="mail-outbox"}')).toBe(2);
    expect(sample(text, 'onreco_job_last_tick_timestamp_seconds{job="mail-outbox"}')).toBeCloseTo(finished.getTime() / 1000, 0);
  });

  it('is a 404 for a client that is not on this host, or came through a proxy, without the token', async () => {
    const request = (headers: Record<string, string> = {}) => new Request('http://localhost/metrics', { headers });
    expect(metricsAllowed(request(), '127.0.0.1', undefined)).toBe(true);
    expect(metricsAllowed(request(), '::1', undefined)).toBe(true);
    expect(metricsAllowed(request(), '192.0.2.7', undefined)).toBe(false);
    expect(metricsAllowed(request({ 'X-Forwarded-For': '192.0.2.7' }), '127.0.0.1', undefined)).toBe(false);
    const token = 'a-long-enough-metrics-token';
    expect(metricsAllowed(request(), '127.0.0.1', token)).toBe(false);
    expect(metricsAllowed(request({ Authorization: `Bearer ${token}` }), '192.0.2.7', token)).toBe(true);
    expect(metricsAllowed(request({ Authorization: 'Bearer a-long-enough-metrics-tokeN' }), '127.0.0.1', token)).toBe(false);
    const refused = await loader({ request: request(), context: { clientAddress: '192.0.2.7' }, params: {} }).catch((response: Response) => response);
    expect(refused.status).toBe(404);
  });
});
