import { type AlertStopSchedule, isInAlertStop } from './alert-stop-schedule';
import { defrostRangesOf } from './defrost';
import { roundTenth } from './format';
import { fromJapan, isWithinDayRanges, japanParts, parseHourMinute } from './japan-time';
import { type ReportInterval, type ReportPoints, type ReportSettingsPeriod, type ReportTable, type ReportWindow, ROW_KIND } from './report-document';

// The pure part of report collection: the table's times, its rows and the shaded windows, from
// readings and settings already read (the summary: report-summary.ts). No I/O, no clock.

const MINUTE = 60_000;

export interface Reading {
  at: Date;
  temperature: number | null;
  error: boolean;
}

/** The Japan days of a period, as the midnight instants that start them. */
export function daysOf(period: { from: Date; to: Date }): Date[] {
  const days: Date[] = [];
  const p = japanParts(period.from);
  for (let i = 0; ; i++) {
    const day = fromJapan(p.year, p.month, p.day + i);
    if (day > period.to) return days;
    days.push(day);
  }
}

/** The times of the table's rows: every N minutes from the period's start to its last row, or the given HH:mm of each day. */
export function tableTimes(period: { from: Date; to: Date }, interval: ReportInterval): Date[] {
  if (interval.kind === 'every') {
    const times: Date[] = [];
    for (let at = period.from.getTime(); at <= period.to.getTime(); at += interval.minutes * MINUTE) times.push(new Date(at));
    return times;
  }
  const minutes = interval.times.map(parseHourMinute).filter((minute): minute is number => minute !== null && minute < 24 * 60).sort((a, b) => a - b);
  return daysOf(period).flatMap((day) => minutes.map((minute) => new Date(day.getTime() + minute * MINUTE)));
}

/** A settings period with its bounds and limits as numbers, for lookups per reading or per row. */
export interface TimedSettings {
  from: number;
  /** Exclusive; Infinity while still in force. */
  to: number;
  lower: number | null;
  upper: number | null;
  settings: ReportSettingsPeriod;
}

export const timedSettings = (settings: readonly ReportSettingsPeriod[]): TimedSettings[] =>
  settings.map((s) => ({ from: s.from.getTime(), to: s.to === null ? Infinity : s.to.getTime(), lower: s.lowerLimit, upper: s.upperLimit, settings: s }));

/** The period that holds `at` ms (the last of them), or null: before the first, in a gap, after the last. */
export function periodHolding<T extends { from: number; to: number }>(periods: readonly T[], at: number): T | null {
  let found: T | null = null;
  for (const period of periods) if (period.from <= at && at < period.to) found = period;
  return found;
}

/** The settings in force at `at` ms for a report (the period that holds it), or the first. */
export function inForceAt<T extends { from: number; to: number }>(periods: readonly T[], at: number): T | null {
  return periodHolding(periods, at) ?? periods[0] ?? null;
}

/** The settings in force at `at` (the period that holds it), or the first. */
export function settingsAt(settings: readonly ReportSettingsPeriod[], at: Date): ReportSettingsPeriod | null {
  return inForceAt(timedSettings(settings), at.getTime())?.settings ?? null;
}

const minuteKey = (at: number) => Math.floor(at / MINUTE);

/**
 * A sensor's readings as typed arrays (no object per reading): instants in ms, temperatures with
 * NaN for none, 1 where the reading is an error. In time order. A month of one-minute readings
 * of 20 sensors is ~18 MB this way instead of ~900,000 objects (docs/decisions/148).
 */
export interface ReadingSeries {
  length: number;
  at: Float64Array;
  temperature: Float64Array;
  error: Uint8Array;
}

export function emptySeries(): ReadingSeries {
  return { length: 0, at: new Float64Array(0), temperature: new Float64Array(0), error: new Uint8Array(0) };
}

/** Readings as objects → a series (for callers and tests that hold objects). */
export function seriesOf(readings: readonly Reading[]): ReadingSeries {
  const series = { length: readings.length, at: new Float64Array(readings.length), temperature: new Float64Array(readings.length), error: new Uint8Array(readings.length) };
  readings.forEach((reading, i) => {
    series.at[i] = reading.at.getTime();
    series.temperature[i] = reading.temperature === null ? NaN : reading.temperature;
    series.error[i] = reading.error ? 1 : 0;
  });
  return series;
}

/** The table rows at the instants `at` (ms): the reading of each row's minute, rounded as the graph rounds; `--` missing, ERROR, DEF inside defrost ranges. */
export function tableRows(at: Float64Array, readings: readonly Reading[] | ReadingSeries, settings: readonly ReportSettingsPeriod[]): ReportTable {
  const series = 'at' in readings && !Array.isArray(readings) ? (readings as ReadingSeries) : seriesOf(readings as readonly Reading[]);
  const readingOf = rowReadings(at, series);
  // Each settings period's defrost ranges parsed once, not once a row.
  const periods = timedSettings(settings).map((period) => ({ ...period, defrost: defrostRangesOf(period.settings.defrost) }));
  const table: ReportTable = { length: at.length, at, kind: new Uint8Array(at.length), temperature: new Float64Array(at.length).fill(NaN) };
  for (let row = 0; row < at.length; row++) {
    const index = readingOf[row];
    if (index >= 0 && series.error[index] === 1) {
      table.kind[row] = ROW_KIND.error;
      continue;
    }
    const reading = index < 0 ? NaN : series.temperature[index];
    if (!Number.isNaN(reading)) table.temperature[row] = roundTenth(reading);
    const inForce = inForceAt(periods, at[row]);
    if (inForce !== null && inForce.defrost.length > 0 && isWithinDayRanges(inForce.defrost, at[row])) table.kind[row] = ROW_KIND.defrost;
    else table.kind[row] = Number.isNaN(reading) ? ROW_KIND.missing : ROW_KIND.value;
  }
  return table;
}

const isSorted = (values: ArrayLike<number>) => {
  for (let i = 1; i < values.length; i++) if (values[i] < values[i - 1]) return false;
  return true;
};

/** Per table time, the index of the last reading within its minute, or -1: one merge pass when both are in time order. */
function rowReadings(times: Float64Array, series: ReadingSeries): Int32Array {
  const out = new Int32Array(times.length).fill(-1);
  const keys = times.map(minuteKey);
  if (!isSorted(keys) || !isSorted(series.at)) {
    const byMinute = new Map<number, number>();
    for (let i = 0; i < series.length; i++) byMinute.set(Math.floor(series.at[i] / MINUTE), i);
    keys.forEach((key, row) => (out[row] = byMinute.get(key) ?? -1));
    return out;
  }
  let i = 0;
  keys.forEach((key, row) => {
    while (i < series.length && Math.floor(series.at[i] / MINUTE) <= key) i++;
    if (i > 0 && Math.floor(series.at[i - 1] / MINUTE) === key) out[row] = i - 1;
  });
  return out;
}

/**
 * The chart's points from a series: every reading when there are few, otherwise at most the
 * first, lowest, highest and last reading of each of `buckets` equal parts of the period (what
 * the PDF's chart keeps anyway, layout.ts decimate), with a NaN where errors or empty readings
 * break the line (one per run of them).
 */
export function chartPoints(series: ReadingSeries, from: number, to: number, buckets = 1000): ReportPoints {
  // Each reading is kept at most once (as a value or as a break): the arrays are cut to what was kept.
  const at = new Float64Array(series.length);
  const temperature = new Float64Array(at.length);
  let n = 0;
  const push = (i: number, t: number) => {
    at[n] = series.at[i];
    temperature[n++] = t;
  };
  const value = (i: number) => (series.error[i] === 1 ? NaN : series.temperature[i]);
  if (series.length <= buckets * 4) {
    for (let i = 0; i < series.length; i++) push(i, value(i));
    return { length: n, at: at.subarray(0, n), temperature: temperature.subarray(0, n) };
  }
  const span = Math.max(1, to - from);
  let bucket = Number.NaN;
  let first = -1;
  let last = -1;
  let lo = -1;
  let hi = -1;
  let picked = -1;
  const keep = (i: number) => {
    if (i <= picked) return;
    push(i, series.temperature[i]);
    picked = i;
  };
  const flush = () => {
    if (first < 0) return;
    // first <= lo, hi <= last: the four in time order, each once.
    keep(first);
    keep(Math.min(lo, hi));
    keep(Math.max(lo, hi));
    keep(last);
    first = -1;
  };
  for (let i = 0; i < series.length; i++) {
    const b = Math.floor(((series.at[i] - from) / span) * buckets);
    if (b !== bucket) {
      flush();
      bucket = b;
    }
    const v = value(i);
    if (Number.isNaN(v)) {
      flush();
      if (n === 0 || !Number.isNaN(temperature[n - 1])) push(i, NaN);
      continue;
    }
    if (first < 0) {
      first = lo = hi = last = i;
      continue;
    }
    last = i;
    if (v < series.temperature[lo]) lo = i;
    if (v > series.temperature[hi]) hi = i;
  }
  flush();
  return { length: n, at: at.subarray(0, n), temperature: temperature.subarray(0, n) };
}

export const NO_POINTS: ReportPoints = { length: 0, at: new Float64Array(0), temperature: new Float64Array(0) };

/** The defrost ranges laid out over each day of the period (by the settings in force that day). */
export function defrostWindows(period: { from: Date; to: Date }, settings: readonly ReportSettingsPeriod[]): ReportWindow[] {
  const end = new Date(period.to.getTime() + 10 * MINUTE);
  return daysOf(period).flatMap((day) => {
    const inForce = settingsAt(settings, day);
    return defrostRangesOf(inForce?.defrost).map((range) => ({ from: new Date(day.getTime() + range.start * MINUTE), to: new Date(Math.min(day.getTime() + range.end * MINUTE, end.getTime())) }));
  });
}

/** The alert-stop windows of a sensor over the period, on the schedules' 30-minute grid (merged when adjacent). */
export function stopWindows(period: { from: Date; to: Date }, schedules: readonly AlertStopSchedule[], equipmentId: number): ReportWindow[] {
  const windows: ReportWindow[] = [];
  if (schedules.length === 0) return windows;
  const step = 30 * MINUTE;
  const end = period.to.getTime() + 10 * MINUTE;
  for (let at = period.from.getTime(); at < end; at += step) {
    if (!isInAlertStop(schedules, equipmentId, new Date(at))) continue;
    const last = windows[windows.length - 1];
    if (last && last.to.getTime() === at) last.to = new Date(Math.min(at + step, end));
    else windows.push({ from: new Date(at), to: new Date(Math.min(at + step, end)) });
  }
  return windows;
}
