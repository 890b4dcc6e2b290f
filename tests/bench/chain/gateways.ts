import { gzipSync } from 'node:zlib';
import { parseRetryAfter, retryDelay, sleep } from '../../../gateway/backoff';
import { CONFIG_DEFAULTS } from '../../../gateway/config';
import { toCompactDateTime } from '../../../app/domain/japan-time';
import { sensorSerial } from './seed';

// The chain's gateways: each store's gateway uploads one reading of every sensor, stamped with
// the moment it is taken, every `intervalMs` (60 s at the chain's 6,700 readings/s), phases
// spread over the interval, gzip batches through the real HTTP API. Like the gateway daemon, a
// gateway has one upload in flight: readings taken meanwhile wait in its buffer and go with the
// next; 429 and 5xx are retried as the daemon retries them (gateway/uploader.ts: exponential
// backoff with full jitter at its default policy, never sooner than Retry-After), so an
// overloaded server is not also flooded with retries. Ingest lag is reading taken →
// the 200 that answers for it (the batch is committed by then).

export interface GatewayFleet {
  /** Readings of the stores (index → token), one batch per store every intervalMs. */
  start(): void;
  /** One reading over the upper limit, sent at once by the store's gateway; its stamp, or null when it was a duplicate. */
  probe(storeIndex: number, sensor: number): Promise<number | null>;
  stop(): Promise<void>;
  stats: FleetStats;
}

export interface FleetStats {
  batches: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  retried: Record<string, number>;
  /** Readings taken but never answered for: in an upload still being retried, or in a buffer, when the run ended. */
  unsent: number;
  /** Per answered batch and stamp: when it was answered (ms since epoch), the lag (ms) and how many readings had it. */
  lags: Lag[];
}

export interface Lag {
  at: number;
  lagMs: number;
  readings: number;
}

interface Pending {
  takenAt: number;
  sensor: number;
  temperature: number;
  /** A probe's: told whether its batch stored every reading (else it may have been a duplicate). */
  stored?: (stored: boolean) => void;
}

/**
 * Far over the upper limit (10 °C): the engine damps readings (tau = 6 s at the sensors' time
 * constant of 1 %), and 40 °C a second after a reading of 6 °C still damps to over 11 °C.
 */
const PROBE_TEMPERATURE = 40;
/** The daemon's defaults (gateway/config.ts): a backlog goes in uploads of up to 5,000 readings. */
const MAX_BATCH = CONFIG_DEFAULTS.uploadBatchSize!;
const BACKOFF = { baseMs: CONFIG_DEFAULTS.retryBaseMs!, maxMs: CONFIG_DEFAULTS.retryMaxMs! };
const RETRY_AFTER_MAX_MS = CONFIG_DEFAULTS.retryAfterMaxSeconds! * 1000;

export function gatewayFleet(base: string, tokens: string[], sensors: number, intervalMs: number): GatewayFleet {
  const stats: FleetStats = { batches: 0, accepted: 0, duplicates: 0, rejected: 0, retried: {}, unsent: 0, lags: [] };
  const buffers = tokens.map((): Pending[] => []);
  const busy = tokens.map(() => false);
  const running = new Set<Promise<number>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // Ends the retry waits at the run's end (the daemon's backoff reaches minutes).
  const stopping = new AbortController();

  /** Posts until answered, or until the run ends (then gives up: the server may be far behind); the number of readings accepted. */
  async function post(store: number, readings: Pending[]): Promise<number> {
    const body = gzipSync(JSON.stringify({ readings: readings.map(wire) }));
    for (let attempt = 0; ; attempt += 1) {
      const response = await fetch(`${base}/on-reco/v1/gateway/readings`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens[store]}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body,
      }).catch((error: Error) => error);
      if (response instanceof Response && response.ok) {
        const answer = (await response.json()) as { accepted: number; duplicates: number; rejected: unknown[] };
        const at = Date.now();
        stats.batches += 1;
        stats.accepted += answer.accepted;
        stats.duplicates += answer.duplicates;
        stats.rejected += answer.rejected.length;
        recordLags(at, readings);
        for (const reading of readings) reading.stored?.(answer.accepted === readings.length);
        return answer.accepted;
      }
      const reason = response instanceof Response ? String(response.status) : response.message;
      stats.retried[reason] = (stats.retried[reason] ?? 0) + 1;
      if (response instanceof Response) await response.arrayBuffer();
      if (response instanceof Response && response.status < 500 && response.status !== 429 && response.status !== 408) throw new Error(`readings refused: ${reason}`);
      const retryAfter = response instanceof Response ? parseRetryAfter(response.headers.get('retry-after'), Date.now()) : undefined;
      await sleep(retryDelay(attempt, BACKOFF, retryAfter, RETRY_AFTER_MAX_MS), stopping.signal);
      if (stopped) {
        stats.unsent += readings.length;
        return 0;
      }
    }
  }

  function recordLags(at: number, readings: Pending[]): void {
    const byStamp = new Map<number, number>();
    for (const r of readings) byStamp.set(r.takenAt, (byStamp.get(r.takenAt) ?? 0) + 1);
    for (const [takenAt, count] of byStamp) stats.lags.push({ at, lagMs: at - takenAt, readings: count });
  }

  /** Sends what the store's buffer holds unless an upload is in flight; again when it ends, if readings came meanwhile. */
  function flush(store: number): void {
    if (busy[store] || buffers[store].length === 0) return;
    busy[store] = true;
    const readings = buffers[store].splice(0, MAX_BATCH);
    const upload = post(store, readings).finally(() => {
      busy[store] = false;
      running.delete(upload);
      if (!stopped) flush(store);
    });
    running.add(upload);
  }

  function take(store: number, at: number): void {
    for (let s = 1; s <= sensors; s += 1) buffers[store].push({ takenAt: at, sensor: s, temperature: normalTemperature(store, s, at) });
    flush(store);
  }

  return {
    stats,
    start() {
      const t0 = Date.now();
      const due = tokens.map((_, store) => t0 + Math.floor((store / tokens.length) * intervalMs));
      // Every 20 ms, the gateways whose moment has come take their readings.
      timer = setInterval(() => {
        const now = Date.now();
        for (let store = 0; store < tokens.length; store += 1) {
          if (due[store] > now) continue;
          take(store, Math.floor(now / 1000) * 1000);
          due[store] += intervalMs;
        }
      }, 20);
    },
    probe(store, sensor) {
      // Into the store's buffer like any reading: it goes at once, or after the upload in flight
      // (the gateway keeps its readings in order). A duplicate when the store's regular readings
      // were taken in the same second (1 in 60): then no alert, and it does not count.
      const takenAt = Math.floor(Date.now() / 1000) * 1000;
      return new Promise<number | null>((resolve) => {
        buffers[store].push({ takenAt, sensor, temperature: PROBE_TEMPERATURE, stored: (stored) => resolve(stored ? takenAt : null) });
        flush(store);
      });
    },
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(timer);
      await Promise.allSettled([...running]);
      stats.unsent += buffers.reduce((sum, buffer) => sum + buffer.length, 0);
    },
  };
}

const wire = (reading: Pending) => ({
  serial_no: sensorSerial(reading.sensor),
  measured_at: toCompactDateTime(new Date(reading.takenAt)),
  temperature: reading.temperature,
  error: false,
  battery: 90,
  receive_sensitivity: -60,
});

/** Within the limits (0 – 10 °C): only the probes open alerts. */
const normalTemperature = (store: number, sensor: number, at: number) => Math.round((4 + 2 * Math.sin(at / 600_000 + store + sensor)) * 10) / 10;
