// Sends the health report (docs/decisions/160): beside an upload once an hour (the uploader takes
// it), on its own when nothing was uploaded for 5 minutes, and at once when something that matters
// changed (buffer past 50 % or 80 %, disk nearly full, readings dropped, adapter, version, LTE level),
// so that the console can raise its alarm hours before anything is lost.
import { ApiClient, describeFailure } from '../api-client';
import type { Credentials } from '../credentials';
import type { Logger } from '../log';
import {
  HEALTH_BUFFER_ALARM_RATIO,
  HEALTH_DISK_LOW_BYTES,
  HEALTH_DISK_LOW_RATIO,
  HEALTH_IDLE_SECONDS,
  HEALTH_PIGGYBACK_SECONDS,
  type HealthReport,
} from '../protocol';

export interface HealthReporterOptions {
  collect: () => Promise<HealthReport>;
  credentials: Credentials;
  logger: Logger;
  requestTimeoutMs: number;
  /** Epoch ms of the last accepted upload, or null. */
  lastUploadAt: () => number | null;
  checkMs?: number;
  idleMs?: number;
  piggybackMs?: number;
  now?: () => number;
  /** Released at stop (the modem's D-Bus connection). */
  close?: () => Promise<void>;
}

export interface HealthReporterStatus {
  lastSentAt: string | null;
  lastError: string | null;
  sentAlone: number;
  sentWithUploads: number;
}

/** What, changing, makes a report urgent. */
export function urgency(report: HealthReport): string {
  const fill = report.buffer_depth / report.buffer_capacity;
  const band = fill >= HEALTH_BUFFER_ALARM_RATIO ? 2 : fill >= 0.5 ? 1 : 0;
  const free = report.disk_free_bytes;
  const total = report.disk_total_bytes;
  const diskLow = free !== null && (free < HEALTH_DISK_LOW_BYTES || (total !== null && total > 0 && free / total < HEALTH_DISK_LOW_RATIO));
  const rssi = report.lte_rssi;
  const lte = rssi === null ? 'none' : rssi > -75 ? 'max' : rssi >= -85 ? 'normal' : rssi >= -90 ? 'weak' : 'none';
  return [band, diskLow, report.dropped_total, report.ble_adapter, report.version, lte].join('|');
}

export class HealthReporter {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private pending: HealthReport | undefined;
  private lastSentAt: number | null = null;
  private lastUrgency: string | null = null;
  private readonly state: HealthReporterStatus = { lastSentAt: null, lastError: null, sentAlone: 0, sentWithUploads: 0 };
  private readonly stopController = new AbortController();

  constructor(private readonly options: HealthReporterOptions) {}

  async start(): Promise<void> {
    this.timer = setInterval(() => void this.tick(), this.options.checkMs ?? 30_000);
    void this.tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopController.abort();
    // A report in flight gets a moment to finish; stopping never waits on the modem or the network.
    await Promise.race([this.running, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    await this.options.close?.().catch(() => undefined);
  }

  status(): HealthReporterStatus {
    return { ...this.state };
  }

  /** For the uploader: the report to carry with the next batch, if one is due. */
  take(): HealthReport | undefined {
    return this.pending;
  }

  delivered(report: HealthReport, alone = false): void {
    if (this.pending === report) this.pending = undefined;
    this.lastSentAt = this.now();
    this.lastUrgency = urgency(report);
    this.state.lastSentAt = new Date(this.lastSentAt).toISOString();
    this.state.lastError = null;
    if (alone) this.state.sentAlone += 1;
    else this.state.sentWithUploads += 1;
  }

  /** One check: collect, then send now, leave it to the next upload, or do nothing. */
  tick(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.check()
      .catch((e: Error) => {
        this.state.lastError = e.message;
        this.options.logger.warn({ err: e }, 'health report failed');
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async check(): Promise<void> {
    const report = await this.options.collect();
    const now = this.now();
    const idleMs = this.options.idleMs ?? HEALTH_IDLE_SECONDS * 1000;
    const sinceSent = this.lastSentAt === null ? Number.POSITIVE_INFINITY : now - this.lastSentAt;
    const lastUpload = this.options.lastUploadAt();
    const idle = lastUpload === null || now - lastUpload >= idleMs;
    if (urgency(report) !== this.lastUrgency || (idle && sinceSent >= idleMs)) {
      await this.sendAlone(report);
    } else if (sinceSent >= (this.options.piggybackMs ?? HEALTH_PIGGYBACK_SECONDS * 1000)) {
      this.pending = report;
    }
  }

  private async sendAlone(report: HealthReport): Promise<void> {
    const { credentials } = this.options;
    credentials.reload();
    const session = credentials.session();
    if (!session) return;
    const client = new ApiClient({ server: session.server, token: session.token, timeoutMs: this.options.requestTimeoutMs, signal: this.stopController.signal });
    const result = await client.postHealth(report);
    if (result.ok) {
      this.delivered(report, true);
      return;
    }
    this.state.lastError = describeFailure(result.failure);
    // Not sent: the next upload carries it.
    this.pending = report;
    this.options.logger.warn({ failure: this.state.lastError }, 'health report not delivered; the next upload carries it');
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}
