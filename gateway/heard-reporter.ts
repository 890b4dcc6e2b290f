// The heard reporter (issue 12): BLE sensors the gateway hears that are not the store's sensors
// are decoded (without a key) and their latest frame kept per address; every interval the list
// goes to POST /heard, so that the console can offer them for registration. Only addresses whose
// advertisement decodes as a supported sensor are reported (phones and beacons are not sensors).
import { ApiClient } from './api-client';
import type { Credentials } from './credentials';
import { explainAdvertisement } from './decoders/index';
import type { Logger } from './log';
import { type HeardSensor, MAX_HEARD_PER_REPORT } from './protocol';
import type { HeardAdvertisement } from './sources/types';
import { formatMeasuredAt } from './time';

/** How often the heard addresses are reported. */
export const HEARD_REPORT_INTERVAL_MS = 60_000;

export interface HeardReporterOptions {
  credentials: Pick<Credentials, 'session' | 'reload'>;
  logger: Logger;
  intervalMs: number;
  requestTimeoutMs: number;
  /** Whether an address is one of the store's sensors (then the recorder has it). */
  isStoreSensor: (address: string) => boolean;
}

export class HeardReporter {
  private readonly latest = new Map<string, HeardSensor>();
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private reported = 0;

  constructor(private readonly options: HeardReporterOptions) {}

  async start(): Promise<void> {
    this.timer = setInterval(() => void this.flush(), this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sending;
  }

  /** Keeps the latest decoded frame of an address that is not a store sensor. */
  note({ ts, adv }: HeardAdvertisement): void {
    if (this.options.isStoreSensor(adv.address)) return;
    const explained = explainAdvertisement(adv);
    if (!explained.ok) return;
    const decoded = explained.value;
    const previous = this.latest.get(adv.address);
    if (previous && previous.heard_at > formatMeasuredAt(ts)) return;
    if (!previous && this.latest.size >= MAX_HEARD_PER_REPORT) return;
    this.latest.set(adv.address, {
      serial_no: adv.address,
      format: decoded.format,
      temperature: decoded.temperature === undefined ? null : Math.round(decoded.temperature * 10) / 10,
      receive_sensitivity: adv.rssi === undefined ? null : Math.max(-127, Math.min(20, Math.round(adv.rssi))),
      heard_at: formatMeasuredAt(ts),
    });
  }

  /** What is waiting to be reported (for the status and tests). */
  pending(): HeardSensor[] {
    return [...this.latest.values()];
  }

  status(): { pending: number; reported: number } {
    return { pending: this.latest.size, reported: this.reported };
  }

  /** Sends what was heard since the last report; kept for the next one when the console is not reached. */
  flush(): Promise<void> {
    if (this.sending || this.latest.size === 0) return this.sending ?? Promise.resolve();
    this.sending = this.send().finally(() => {
      this.sending = null;
    });
    return this.sending;
  }

  private async send(): Promise<void> {
    this.options.credentials.reload();
    const session = this.options.credentials.session();
    if (!session) return;
    const sensors = this.pending();
    const client = new ApiClient({ server: session.server, token: session.token, timeoutMs: this.options.requestTimeoutMs });
    const result = await client.postHeard({ sensors });
    if (!result.ok) {
      this.options.logger.warn({ failure: result.failure }, 'could not report the unregistered sensors heard');
      return;
    }
    for (const sent of sensors) if (this.latest.get(sent.serial_no) === sent) this.latest.delete(sent.serial_no);
    this.reported += sensors.length;
    this.options.logger.debug({ sensors: sensors.length }, 'unregistered sensors reported');
  }
}
