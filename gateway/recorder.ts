// The aggregator component: advertisement -> store sensor? -> decode (with the sensor's key) ->
// counter guard (repeats, replays, downgrades) -> interval aggregation -> buffer.
// Devices that are not the store's sensors are only counted (`scan` shows them).
import { IntervalAggregator, type Closed, type Sample } from './aggregator';
import type { ReadingBuffer } from './buffer';
import { CounterGuard, judgeSensorAdvertisement, type DecodedAdvertisement } from './decoders/index';
import type { Logger } from './log';
import { DEFAULT_SAMPLING_INTERVAL_SECONDS } from './protocol';
import type { HeardAdvertisement } from './sources/types';
import type { StoreConfig, StoreSensor } from './state';
import { formatMeasuredAt } from './time';

/** Before this the clock is not set (a gateway without RTC before NTP): nothing is recorded. */
export const CLOCK_FLOOR_MS = Date.UTC(2024, 0, 1);

/** What the status shows of a store sensor before anything was heard from it. */
export function notYetHeard(sensor: Pick<StoreSensor, 'serialNo' | 'equipmentId'>): SensorSeen {
  return {
    serialNo: sensor.serialNo,
    equipmentId: sensor.equipmentId,
    lastSeen: null,
    format: null,
    temperature: null,
    humidity: null,
    battery: null,
    batteryMv: null,
    rssi: null,
    sensorError: false,
    heard: 0,
    used: 0,
    dropped: { duplicate: 0, downgrade: 0, replay: 0, undecodable: 0 },
    lastProblem: null,
    lastProblemAt: null,
  };
}

export interface SensorSeen {
  serialNo: string;
  equipmentId: string;
  lastSeen: string | null;
  format: string | null;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  batteryMv: number | null;
  rssi: number | null;
  sensorError: boolean;
  heard: number;
  used: number;
  dropped: { duplicate: number; downgrade: number; replay: number; undecodable: number };
  lastProblem: string | null;
  /** When lastProblem last happened: `status` shows it only while it is recent. */
  lastProblemAt: string | null;
}

export interface RecorderStatus {
  samplingIntervalSeconds: number | null;
  aggregatedBefore: string | null;
  readingsRecorded: number;
  lateAdvertisements: number;
  clockNotSet: number;
  otherDevicesHeard: number;
  sensors: SensorSeen[];
}

export interface RecorderOptions {
  buffer: ReadingBuffer;
  logger: Logger;
  /** The source's clock (wall, simulated, or replay position). */
  clock: () => number;
  /** Live sources close intervals on a timer; replay closes them as its time moves on. */
  live: boolean;
  closeGraceMs: number;
}

const MAX_OTHER_DEVICES = 10_000;

/** Battery % from a coin cell's voltage when a format only carries mV (Ruuvi): 2.2 V empty, 3.0 V full. */
export function batteryPercentFromMv(mv: number): number {
  return Math.max(0, Math.min(100, Math.round(((mv - 2200) / 800) * 100)));
}

export class Recorder {
  private aggregator: IntervalAggregator | null = null;
  private config: StoreConfig | null = null;
  private sensors = new Map<string, StoreSensor>();
  private guard = new CounterGuard({ hasKey: (address) => this.sensors.get(address)?.key != null });
  private readonly seen = new Map<string, SensorSeen>();
  private readonly others = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private readingsRecorded = 0;
  private late = 0;
  private clockNotSet = 0;

  constructor(private readonly options: RecorderOptions) {}

  async start(): Promise<void> {
    let checkpoint = this.options.buffer.checkpoint();
    if (this.options.live && checkpoint > this.options.clock() + this.intervalMs()) {
      // The clock went back (NTP correcting a wrong boot time) or a sped-up simulation used this
      // data dir: honouring the checkpoint would drop every advertisement until then.
      this.options.logger.warn(
        { aggregatedBefore: new Date(checkpoint).toISOString(), now: new Date(this.options.clock()).toISOString() },
        'the last recorded interval is in the future; recording from now on',
      );
      checkpoint = Number.NEGATIVE_INFINITY;
    }
    this.aggregator = new IntervalAggregator(this.intervalMs(), checkpoint);
    if (Number.isFinite(checkpoint)) {
      this.options.logger.info({ aggregatedBefore: new Date(checkpoint).toISOString() }, 'resuming after the last recorded interval');
    }
    if (this.options.live) this.timer = setInterval(() => this.tick(), 1000);
  }

  /** Closes what is open (a partial last interval is recorded, labelled with its start). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
    this.aggregator = null;
  }

  /** The store's sensors and interval; applies at once (a new interval closes the open ones). */
  setConfig(config: StoreConfig): void {
    this.config = config;
    const next = new Map(config.sensors.map((s) => [s.serialNo, s]));
    for (const address of this.sensors.keys()) if (!next.has(address)) this.guard.forget(address);
    this.sensors = next;
    for (const serial of this.seen.keys()) if (!next.has(serial)) this.seen.delete(serial);
    const intervalMs = this.intervalMs();
    if (this.aggregator && this.aggregator.interval !== intervalMs) {
      this.options.logger.info({ samplingIntervalSeconds: intervalMs / 1000 }, 'sampling interval changed');
      this.record(this.aggregator.setInterval(intervalMs));
    }
  }

  storeSensors(): StoreSensor[] {
    return [...this.sensors.values()];
  }

  handle({ ts, adv }: HeardAdvertisement): void {
    const sensor = this.sensors.get(adv.address);
    if (!sensor) {
      if (this.others.size < MAX_OTHER_DEVICES) this.others.add(adv.address);
      return;
    }
    const seen = this.seenFor(sensor);
    seen.heard += 1;
    seen.lastSeen = new Date(ts).toISOString();
    if (adv.rssi !== undefined) seen.rssi = adv.rssi;
    if (this.options.live && ts < CLOCK_FLOOR_MS) {
      this.clockNotSet += 1;
      if (this.clockNotSet === 1) this.options.logger.error({ now: new Date(ts).toISOString() }, 'system clock is not set: advertisements are not recorded until it is');
      return;
    }
    const verdict = judgeSensorAdvertisement(adv, sensor, this.guard);
    if (!verdict.ok) {
      seen.dropped[verdict.kind] += 1;
      seen.lastProblem = verdict.reason;
      seen.lastProblemAt = seen.lastSeen;
      return;
    }
    if (verdict.duplicate) {
      seen.dropped.duplicate += 1;
      return;
    }
    const decoded = verdict.value;
    this.updateSeen(seen, decoded);
    if (!this.aggregator) return;
    if (!this.options.live) this.record(this.aggregator.advance(ts, 0));
    const sample: Sample = { ts, rssi: adv.rssi, error: decoded.error };
    if (decoded.temperature !== undefined) sample.temperature = decoded.temperature;
    const battery = decoded.battery ?? (decoded.batteryMv !== undefined ? batteryPercentFromMv(decoded.batteryMv) : undefined);
    if (battery !== undefined) sample.battery = battery;
    if (this.aggregator.add(sensor.serialNo, sample) === 'late') this.late += 1;
    else seen.used += 1;
  }

  /** Closes intervals that are over by the source's clock (live sources: every second). */
  tick(): void {
    if (this.aggregator) this.record(this.aggregator.advance(this.options.clock(), this.options.closeGraceMs));
  }

  /** Closes every open interval (end of replay, stop). */
  flush(): void {
    if (this.aggregator) this.record(this.aggregator.flushAll());
  }

  status(): RecorderStatus {
    const checkpoint = this.aggregator?.checkpoint ?? Number.NEGATIVE_INFINITY;
    return {
      samplingIntervalSeconds: this.config?.samplingIntervalSeconds ?? null,
      aggregatedBefore: Number.isFinite(checkpoint) ? formatMeasuredAt(checkpoint) : null,
      readingsRecorded: this.readingsRecorded,
      lateAdvertisements: this.late,
      clockNotSet: this.clockNotSet,
      otherDevicesHeard: this.others.size,
      sensors: this.storeSensors().map((s) => structuredClone(this.seenFor(s))),
    };
  }

  private record(closed: Closed): void {
    if (closed.readings.length === 0) return;
    const result = this.options.buffer.insert(closed.readings, closed.closedBefore);
    this.readingsRecorded += result.inserted;
    this.options.logger.debug({ readings: closed.readings.length, inserted: result.inserted }, 'interval recorded');
  }

  private intervalMs(): number {
    return (this.config?.samplingIntervalSeconds ?? DEFAULT_SAMPLING_INTERVAL_SECONDS) * 1000;
  }

  private seenFor(sensor: StoreSensor): SensorSeen {
    let seen = this.seen.get(sensor.serialNo);
    if (!seen) {
      seen = notYetHeard(sensor);
      this.seen.set(sensor.serialNo, seen);
    }
    return seen;
  }

  private updateSeen(seen: SensorSeen, decoded: DecodedAdvertisement): void {
    seen.format = decoded.format;
    if (decoded.temperature !== undefined) {
      seen.temperature = decoded.temperature;
      seen.sensorError = false;
    } else if (decoded.error) {
      seen.sensorError = true;
    }
    if (decoded.humidity !== undefined) seen.humidity = decoded.humidity;
    if (decoded.battery !== undefined) seen.battery = decoded.battery;
    if (decoded.batteryMv !== undefined) seen.batteryMv = decoded.batteryMv;
  }
}
