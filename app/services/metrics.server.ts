import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import client, { AggregatorRegistry, type Metric, Registry } from 'prom-client';
import type { Db } from '~/db/db.server';
import { getQueueFigures, listJobTickFigures } from '~/models/operations-figures.server';
import { listLaneHeartbeats } from '~/models/worker-heartbeats.server';

// The console's Prometheus metrics (GET /metrics; docs/operations.md lists the alerts to set on
// them, docs/decisions/212-metrics.md says why they are made this way). Two kinds:
// - counted in the web process (requests, ingest): prom-client's global registry. Under
//   WEB_CONCURRENCY the process answering asks the cluster's primary, which sums every web
//   process's (prom-client's AggregatorRegistry), so a scrape sees one counter, not a random fork's.
// - read from the database at each scrape (queues, job ticks, worker heartbeats): the same for
//   every process, so read once, by the process answering.

/**
 * This module is loaded twice in a web process (by the server entry and inside the Remix build):
 * the second load takes the metric the first registered in the shared global registry.
 */
function shared<T extends Metric>(name: string, make: () => T): T {
  return (client.register.getSingleMetric(name) as T | undefined) ?? make();
}

if (!client.register.getSingleMetric('process_cpu_user_seconds_total')) client.collectDefaultMetrics();
// prom-client answers the primary's requests for this process's metrics only once an
// AggregatorRegistry was made here (its constructor adds the listener; it is idempotent).
if (cluster.isWorker) new AggregatorRegistry();

const httpRequests = shared('onreco_http_requests_total', () =>
  new client.Counter({ name: 'onreco_http_requests_total', help: 'HTTP requests answered, by method, route template and status.', labelNames: ['method', 'route', 'status'] as const }));
const httpSeconds = shared('onreco_http_request_duration_seconds', () =>
  new client.Histogram({ name: 'onreco_http_request_duration_seconds', help: 'Time to answer a request, by route template.', labelNames: ['route'] as const, buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] }));
const ingestReadings = shared('onreco_ingest_readings_total', () =>
  new client.Counter({ name: 'onreco_ingest_readings_total', help: 'Readings gateways posted, by outcome (accepted, duplicate, rejected).', labelNames: ['outcome'] as const }));
const ingestLag = shared('onreco_ingest_lag_seconds', () =>
  new client.Histogram({ name: 'onreco_ingest_lag_seconds', help: 'Per accepted batch: arrival time minus the newest reading\'s measured_at.', buckets: [5, 15, 30, 60, 120, 300, 900, 3600, 21_600] }));

export function recordRequest(method: string, route: string, status: number, seconds: number): void {
  httpRequests.inc({ method, route, status: String(status) });
  httpSeconds.observe({ route }, seconds);
}

export function recordIngest(figures: { accepted: number; duplicates: number; rejected: number; newestMeasuredAt: Date | null }, now: Date): void {
  if (figures.accepted) ingestReadings.inc({ outcome: 'accepted' }, figures.accepted);
  if (figures.duplicates) ingestReadings.inc({ outcome: 'duplicate' }, figures.duplicates);
  if (figures.rejected) ingestReadings.inc({ outcome: 'rejected' }, figures.rejected);
  if (figures.newestMeasuredAt) ingestLag.observe(Math.max(0, (now.getTime() - figures.newestMeasuredAt.getTime()) / 1000));
}

/** The database's figures as a registry of its own, filled now. */
async function databaseRegistry(db: Db, now: Date): Promise<Registry> {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = []) => new client.Gauge({ name, help, labelNames, registers: [registry] });
  const [queues, jobs, lanes] = await Promise.all([getQueueFigures(db, now), listJobTickFigures(db, now), listLaneHeartbeats(db, new Date(now.getTime() - 86_400_000))]);
  gauge('onreco_outbox_depth', 'Alert and report mails not sent yet.').set(queues.outboxDepth);
  gauge('onreco_outbox_oldest_seconds', 'Age of the oldest mail not sent yet (0: none).').set(queues.outboxOldestSeconds);
  gauge('onreco_report_queue_depth', 'Reports waiting to be made.').set(queues.reportQueueDepth);
  gauge('onreco_report_queue_oldest_seconds', 'Age of the oldest report waiting (0: none).').set(queues.reportQueueOldestSeconds);
  const ticks = gauge('onreco_job_ticks_last_hour', 'Scheduled job runs finished in the last hour, by job.', ['job']);
  const lastTick = gauge('onreco_job_last_tick_timestamp_seconds', 'When each job last finished a run (Unix time).', ['job']);
  for (const job of jobs) {
    ticks.set({ job: job.job }, job.ticksLastHour);
    if (job.lastFinished) lastTick.set({ job: job.job }, job.lastFinished.getTime() / 1000);
  }
  const beat = gauge('onreco_worker_heartbeat_age_seconds', 'Seconds since the newest heartbeat of a running worker, by lane.', ['lane']);
  const starts = gauge('onreco_worker_starts_24h', 'Worker processes started in the last 24 h, by lane: above the count running, the rest were restarts.', ['lane']);
  for (const lane of lanes) {
    if (lane.newestBeat) beat.set({ lane: lane.lane }, Math.max(0, (now.getTime() - lane.newestBeat.getTime()) / 1000));
    starts.set({ lane: lane.lane }, lane.starts);
  }
  return registry;
}

export const METRICS_CONTENT_TYPE = client.register.contentType;

const ASK = 'onreco:metrics';
const ANSWER = 'onreco:metrics-answer';
const ASK_TIMEOUT_MS = 5000;

/** This process's counters, or under the cluster's primary every web process's, summed. */
function processMetrics(): Promise<string> {
  if (!cluster.isWorker || !process.send) return client.register.metrics();
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (process.off('message', listen), reject(new Error('the web supervisor did not answer with the metrics'))), ASK_TIMEOUT_MS);
    const listen = (message: unknown) => {
      const answer = message as { type?: string; id?: string; text?: string };
      if (answer?.type !== ANSWER || answer.id !== id) return;
      clearTimeout(timer);
      process.off('message', listen);
      resolve(answer.text ?? '');
    };
    process.on('message', listen);
    process.send!({ type: ASK, id });
  });
}

export async function metricsText(db: Db, now: Date): Promise<string> {
  const [counted, database] = await Promise.all([processMetrics(), databaseRegistry(db, now).then((registry) => registry.metrics())]);
  return `${counted}\n${database}`;
}

/**
 * In the cluster's primary (app/http/server/web-cluster.server.ts): answers a web process's ask
 * with every web process's counters summed, and the primary's own (`own`: its restarts).
 */
export function answerClusterMetrics(own: Registry): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== ASK) return;
    void Promise.all([aggregator.clusterMetrics(), own.metrics()])
      .then(([all, mine]) => `${all}\n${mine}`)
      .catch((error: Error) => `# the cluster's metrics could not be gathered: ${error.message}\n`)
      .then((text) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, text }));
  });
}
