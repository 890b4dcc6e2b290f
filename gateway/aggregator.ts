// Advertisements -> one reading per store sensor per interval. Pure: no clock, no I/O. The
// caller passes time in (the advertisement's own time, and `advance(now)` from its clock).
import { formatMeasuredAt, intervalStart } from './time';

/** What one decoded advertisement of a store sensor contributes. */
export interface Sample {
  /** Epoch ms: when it was heard (replay: the capture's `ts`). */
  ts: number;
  temperature?: number;
  /** The sensor reports a measurement error (probe fault, invalid value). */
  error?: boolean;
  /** Battery %. */
  battery?: number;
  rssi?: number;
}

export interface Reading {
  serialNo: string;
  /** `YYYYMMDDHHmmss` Japan time: the start of the interval. */
  measuredAt: string;
  /** °C, one decimal; null for an error reading. */
  temperature: number | null;
  error: boolean;
  battery: number | null;
  rssi: number | null;
}

export interface Closed {
  readings: Reading[];
  /** Every interval that starts before this instant is closed; persist it with the readings. */
  closedBefore: number;
}

interface Accumulator {
  temperatures: number[];
  errors: number;
  batteryTs: number;
  battery: number | undefined;
  rssis: number[];
}

export type AddResult = 'added' | 'late';

export class IntervalAggregator {
  private readonly open = new Map<number, Map<string, Accumulator>>();

  /**
   * @param intervalMs length of an interval (the server's sampling_interval_seconds)
   * @param closedBefore advertisements of an interval that starts before this are late and
   *   dropped (the checkpoint saved with the last readings, so a restart never re-aggregates a
   *   closed interval)
   */
  constructor(
    private intervalMs: number,
    private closedBefore: number = Number.NEGATIVE_INFINITY,
  ) {}

  get interval(): number {
    return this.intervalMs;
  }

  get checkpoint(): number {
    return this.closedBefore;
  }

  add(serialNo: string, sample: Sample): AddResult {
    const start = intervalStart(sample.ts, this.intervalMs);
    // An interval that started before the checkpoint is closed (or, after an interval change,
    // overlaps one that is): its advertisements are late.
    if (!(start >= this.closedBefore)) return 'late';
    let sensors = this.open.get(start);
    if (!sensors) {
      sensors = new Map();
      this.open.set(start, sensors);
    }
    let acc = sensors.get(serialNo);
    if (!acc) {
      acc = { temperatures: [], errors: 0, batteryTs: Number.NEGATIVE_INFINITY, battery: undefined, rssis: [] };
      sensors.set(serialNo, acc);
    }
    if (sample.temperature !== undefined && Number.isFinite(sample.temperature)) {
      acc.temperatures.push(sample.temperature);
    } else if (sample.error) {
      acc.errors += 1;
    }
    if (sample.battery !== undefined && Number.isFinite(sample.battery) && sample.ts >= acc.batteryTs) {
      acc.battery = sample.battery;
      acc.batteryTs = sample.ts;
    }
    if (sample.rssi !== undefined && Number.isFinite(sample.rssi)) acc.rssis.push(sample.rssi);
    return 'added';
  }

  /** Closes the intervals that ended at or before `nowMs - graceMs`. */
  advance(nowMs: number, graceMs = 0): Closed {
    const boundary = intervalStart(nowMs - graceMs, this.intervalMs);
    return this.closeBefore(boundary);
  }

  /** Closes every open interval (end of a replay, stop, interval change). */
  flushAll(): Closed {
    let end = this.closedBefore;
    for (const start of this.open.keys()) end = Math.max(end, start + this.intervalMs);
    return this.closeBefore(end);
  }

  /** Switches to a new interval length, closing what is open under the old one first. */
  setInterval(intervalMs: number): Closed {
    const closed = this.flushAll();
    this.intervalMs = intervalMs;
    return closed;
  }

  private closeBefore(boundary: number): Closed {
    const readings: Reading[] = [];
    if (boundary <= this.closedBefore) return { readings, closedBefore: this.closedBefore };
    this.closedBefore = boundary;
    const starts = [...this.open.keys()].filter((s) => s < this.closedBefore).sort((a, b) => a - b);
    for (const start of starts) {
      const measuredAt = formatMeasuredAt(start);
      for (const [serialNo, acc] of this.open.get(start)!) {
        const reading = toReading(serialNo, measuredAt, acc);
        if (reading) readings.push(reading);
      }
      this.open.delete(start);
    }
    return { readings, closedBefore: this.closedBefore };
  }
}

function toReading(serialNo: string, measuredAt: string, acc: Accumulator): Reading | null {
  let temperature: number | null;
  if (acc.temperatures.length > 0) temperature = roundTo(median(acc.temperatures), 1);
  else if (acc.errors > 0) temperature = null;
  else return null; // heard, but nothing about temperature: no reading
  return {
    serialNo,
    measuredAt,
    temperature,
    error: temperature === null,
    battery: acc.battery === undefined ? null : Math.min(100, Math.max(0, Math.round(acc.battery))),
    rssi: acc.rssis.length > 0 ? Math.round(median(acc.rssis)) : null,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Rounds half away from zero to `decimals`, immune to binary noise (2.35 -> 2.4, -18.25 -> -18.3). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const scaled = Number((Math.abs(value) * factor).toPrecision(12));
  const rounded = (Math.sign(value) * Math.round(scaled)) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}
