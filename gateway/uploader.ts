// Pushes the buffer to the server, oldest first, in gzip batches. A reading leaves the buffer
// only once the server answered for it (accepted, duplicate, or rejected as invalid). Network
// errors, 408, 429 and 5xx are retried with exponential backoff and full jitter, never sooner
// than Retry-After; a backlog drains back-to-back as fast as the server answers.
import { ApiClient, describeFailure, type ApiFailure } from './api-client';
import type { HealthReport, ReadingsAnswer, WireReading } from './protocol';
import { retryDelay, sleep, type BackoffPolicy } from './backoff';
import type { BufferedReading, ReadingBuffer } from './buffer';
import type { Credentials } from './credentials';
import type { Logger } from './log';

export interface UploaderOptions {
  buffer: ReadingBuffer;
  credentials: Credentials;
  logger: Logger;
  batchSize: number;
  /** Wait after new readings arrive so that one upload carries them all. */
  delayMs: number;
  backoff: BackoffPolicy;
  retryAfterMaxMs: number;
  requestTimeoutMs: number;
  /** How often to look for a new token while revoked or unpaired. */
  credentialsPollMs?: number;
  random?: () => number;
  now?: () => number;
  /** The health report to carry with the next batch (health/reporter.ts), told when it was delivered. */
  health?: { take(): HealthReport | undefined; delivered(report: HealthReport): void };
}

export type UploaderPhase = 'idle' | 'uploading' | 'waiting-retry' | 'token-revoked' | 'not-paired' | 'stopped';

export interface UploadOutcome {
  at: string;
  ok: boolean;
  readings: number;
  accepted?: number;
  duplicates?: number;
  rejected?: number;
  error?: string;
}

export interface UploaderStatus {
  phase: UploaderPhase;
  batchLimit: number;
  consecutiveFailures: number;
  nextRetryAt: string | null;
  lastAttempt: UploadOutcome | null;
  lastSuccessAt: string | null;
  totals: { batches: number; accepted: number; duplicates: number; rejected: number };
}

const MAX_REJECTS_LOGGED = 20;

export class Uploader {
  private stopController = new AbortController();
  private wake: (() => void) | null = null;
  private pendingWake = false;
  private loop: Promise<void> | null = null;
  private drainedWaiters: (() => void)[] = [];
  private readonly state: UploaderStatus;

  constructor(private readonly options: UploaderOptions) {
    this.state = {
      phase: 'idle',
      batchLimit: options.batchSize,
      consecutiveFailures: 0,
      nextRetryAt: null,
      lastAttempt: null,
      lastSuccessAt: null,
      totals: { batches: 0, accepted: 0, duplicates: 0, rejected: 0 },
    };
  }

  async start(): Promise<void> {
    this.stopController = new AbortController();
    this.options.buffer.onInsert(() => this.notify());
    this.loop = this.run().catch((e) => {
      this.options.logger.fatal({ err: e }, 'uploader loop crashed');
      throw e;
    });
  }

  async stop(): Promise<void> {
    this.stopController.abort();
    this.notify();
    const loop = this.loop;
    this.loop = null;
    this.state.phase = 'stopped';
    if (loop) await loop;
  }

  /** New readings are in the buffer. */
  notify(): void {
    this.pendingWake = true;
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Resolves the next time the buffer is empty and no upload is in flight. */
  whenDrained(): Promise<void> {
    return new Promise((resolve) => {
      this.drainedWaiters.push(resolve);
      this.notify();
    });
  }

  status(): UploaderStatus {
    return structuredClone(this.state);
  }

  private get stopped(): boolean {
    return this.stopController.signal.aborted;
  }

  private async run(): Promise<void> {
    const { buffer, credentials, logger } = this.options;
    let retryAttempt = 0;
    while (!this.stopped) {
      if (buffer.depth === 0) {
        this.state.phase = 'idle';
        for (const resolve of this.drainedWaiters.splice(0)) resolve();
        await this.waitForWake();
        if (this.options.delayMs > 0 && buffer.depth > 0) await sleep(this.options.delayMs, this.stopController.signal);
        continue;
      }

      credentials.reload();
      const session = credentials.session();
      if (!session) {
        this.state.phase = credentials.revoked ? 'token-revoked' : 'not-paired';
        await sleep(this.options.credentialsPollMs ?? 30_000, this.stopController.signal);
        continue;
      }

      const batch = buffer.oldest(this.state.batchLimit);
      const overflow = buffer.overflowPending();
      this.state.phase = 'uploading';
      const client = new ApiClient({
        server: session.server,
        token: session.token,
        timeoutMs: this.options.requestTimeoutMs,
        signal: this.stopController.signal,
        now: this.options.now,
      });
      const started = this.now();
      const health = this.options.health?.take();
      const result = await client.postReadings(batch.map(toWire), overflow, health);
      if (this.stopped && !result.ok) break;

      if (result.ok) {
        if (health) this.options.health?.delivered(health);
        this.answered(batch, result.value, overflow);
        retryAttempt = 0;
        this.state.consecutiveFailures = 0;
        this.state.nextRetryAt = null;
        logger.debug({ readings: batch.length, ms: this.now() - started, left: buffer.depth }, 'batch uploaded');
        continue;
      }

      const failure = result.failure;
      this.recordFailure(batch.length, failure);
      if (failure.kind === 'http' && (failure.status === 401 || failure.status === 403)) {
        credentials.markRevoked(session.token, describeFailure(failure));
        continue;
      }
      if (failure.kind === 'http' && [400, 413, 422].includes(failure.status) && batch.length > 1) {
        // The server refuses the request as a whole: try smaller batches (kept for this run).
        this.state.batchLimit = Math.max(1, Math.floor(batch.length / 2));
        logger.error(
          { status: failure.status, detail: failure.message, batchLimit: this.state.batchLimit },
          'server refused the batch; retrying with smaller batches',
        );
        continue;
      }
      const delay = retryDelay(
        retryAttempt,
        this.options.backoff,
        failure.kind === 'http' ? failure.retryAfterMs : undefined,
        this.options.retryAfterMaxMs,
        this.options.random,
      );
      retryAttempt += 1;
      this.state.phase = 'waiting-retry';
      this.state.nextRetryAt = new Date(this.now() + delay).toISOString();
      const level = this.state.consecutiveFailures >= 5 ? 'error' : 'warn';
      logger[level](
        { failure: describeFailure(failure), attempt: retryAttempt, retryInMs: delay, backlog: buffer.depth },
        'upload failed; will retry',
      );
      await sleep(delay, this.stopController.signal);
    }
    this.state.phase = 'stopped';
  }

  private answered(batch: BufferedReading[], answer: ReadingsAnswer, overflow: boolean): void {
    const { buffer, logger } = this.options;
    const answeredFor = answer.accepted + answer.duplicates + answer.rejected.length;
    if (answeredFor !== batch.length) {
      logger.warn(
        { sent: batch.length, accepted: answer.accepted, duplicates: answer.duplicates, rejected: answer.rejected.length },
        'server answer does not add up to the batch; treating the whole batch as answered',
      );
    }
    for (const reject of answer.rejected.slice(0, MAX_REJECTS_LOGGED)) {
      const reading = batch[reject.index];
      logger.warn(
        { index: reject.index, reason: reject.reason, serialNo: reading?.serialNo, measuredAt: reading?.measuredAt },
        'server rejected a reading; dropped',
      );
    }
    if (answer.rejected.length > MAX_REJECTS_LOGGED) {
      logger.warn({ more: answer.rejected.length - MAX_REJECTS_LOGGED }, 'more rejected readings not logged one by one');
    }
    buffer.remove(batch, overflow);
    if (overflow) logger.warn('the console was told that the buffer overflowed (buffer_overflow sent)');
    const at = new Date(this.now()).toISOString();
    this.state.lastAttempt = {
      at,
      ok: true,
      readings: batch.length,
      accepted: answer.accepted,
      duplicates: answer.duplicates,
      rejected: answer.rejected.length,
    };
    this.state.lastSuccessAt = at;
    this.state.totals.batches += 1;
    this.state.totals.accepted += answer.accepted;
    this.state.totals.duplicates += answer.duplicates;
    this.state.totals.rejected += answer.rejected.length;
  }

  private recordFailure(readings: number, failure: ApiFailure): void {
    this.state.consecutiveFailures += 1;
    this.state.lastAttempt = { at: new Date(this.now()).toISOString(), ok: false, readings, error: describeFailure(failure) };
  }

  private waitForWake(): Promise<void> {
    if (this.pendingWake || this.stopped) {
      this.pendingWake = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.wake = () => {
        this.pendingWake = false;
        resolve();
      };
    });
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

export function toWire(r: BufferedReading): WireReading {
  return {
    serial_no: r.serialNo,
    measured_at: r.measuredAt,
    temperature: r.temperature,
    error: r.error,
    battery: r.battery,
    receive_sensitivity: r.rssi,
  };
}
