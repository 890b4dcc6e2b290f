// Daily equipment indicators of one sensor and the drift rule that flags a weakening case before
// any alert (issue 32, decision 298). Pure: the worker job reads one Japan day of minute readings
// and the settings in force, and stores what this returns.
import { damp } from './alert-engine';
import { type DayRange, japanMinuteOfDay } from './japan-time';

export interface IndicatorReading {
  at: Date;
  temperature: number | null; // °C; null on an error reading
}

export interface IndicatorSettings {
  lowerLimit: number | null;
  upperLimit: number | null;
  timeConstant: number | null;
  defrostRanges: readonly DayRange[];
}

export interface DailyIndicators {
  recoveryMinutes: number | null; // mean over the day's defrost windows; null without one
  minutesAboveMidpoint: number | null; // outside defrost; null without both limits or readings
  nightAverage: number | null; // °C, 00:00–05:00 Japan time outside defrost
  dampedRange: number | null; // °C, max − min of the damped temperature outside defrost
}

export const INDICATOR_KEYS = ['recoveryMinutes', 'minutesAboveMidpoint', 'nightAverage', 'dampedRange'] as const;
export type IndicatorKey = (typeof INDICATOR_KEYS)[number];

/** Night: the hours a store is closed and its cases are not opened, so warmth is the machine's. */
const NIGHT_END_MINUTE = 5 * 60;
/** The level a case returns to: the median of this many minutes before the defrost starts … */
const BASELINE_MINUTES = 60;
/** … plus this tolerance, in °C (the sensor's resolution is 0.1 °C; a case wobbles by about 0.5). */
const RECOVERY_TOLERANCE = 0.5;
/** A case not back within this many minutes counts as this many (one stuck case stays bounded). */
const RECOVERY_CAP_MINUTES = 240;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const inRanges = (ranges: readonly DayRange[], minute: number) => ranges.some((r) => r.start <= minute && minute < r.end);

/** The four indicators of one day's readings (sorted by time, all in one Japan day). */
export function dailyIndicators(readings: readonly IndicatorReading[], settings: IndicatorSettings): DailyIndicators {
  const valid = readings.filter((r): r is { at: Date; temperature: number } => r.temperature !== null);
  const minutes = valid.map((r) => japanMinuteOfDay(r.at));
  const outside = valid.filter((_, i) => !inRanges(settings.defrostRanges, minutes[i]));

  const recoveries: number[] = [];
  for (const range of settings.defrostRanges) {
    const before = valid.filter((_, i) => minutes[i] >= range.start - BASELINE_MINUTES && minutes[i] < range.start).map((r) => r.temperature);
    const after = valid.filter((_, i) => minutes[i] >= range.end);
    if (before.length === 0 || after.length === 0) continue;
    const target = median(before) + RECOVERY_TOLERANCE;
    const back = after.find((r) => r.temperature <= target);
    const afterStart = (r: { at: Date }) => japanMinuteOfDay(r.at) - range.end;
    recoveries.push(Math.min(RECOVERY_CAP_MINUTES, back ? afterStart(back) : RECOVERY_CAP_MINUTES));
  }

  let minutesAboveMidpoint: number | null = null;
  if (settings.lowerLimit !== null && settings.upperLimit !== null && outside.length > 0) {
    const midpoint = (settings.lowerLimit + settings.upperLimit) / 2;
    minutesAboveMidpoint = outside.filter((r) => r.temperature > midpoint).length; // one reading a minute
  }

  const night = outside.filter((r) => japanMinuteOfDay(r.at) < NIGHT_END_MINUTE).map((r) => r.temperature);

  let dampedRange: number | null = null;
  let damped: number | null = null;
  let previousAt = 0;
  let low = Infinity;
  let high = -Infinity;
  for (const [i, r] of valid.entries()) {
    damped = damped === null ? r.temperature : damp(damped, r.temperature, (r.at.getTime() - previousAt) / 60_000, { timeConstant: settings.timeConstant });
    previousAt = r.at.getTime();
    if (inRanges(settings.defrostRanges, minutes[i])) continue;
    low = Math.min(low, damped);
    high = Math.max(high, damped);
  }
  if (high >= low) dampedRange = Math.round((high - low) * 100) / 100;

  return {
    recoveryMinutes: recoveries.length ? recoveries.reduce((a, b) => a + b, 0) / recoveries.length : null,
    minutesAboveMidpoint,
    nightAverage: night.length ? Math.round((night.reduce((a, b) => a + b, 0) / night.length) * 100) / 100 : null,
    dampedRange,
  };
}

// ---- drift rule (decision 298) -------------------------------------------------------------

/** Trailing days of the sensor's own history the day is compared with (not counting the day). */
export const DRIFT_HISTORY_DAYS = 14;
/** Fewer own days than this: no judgement yet (a new sensor is not flagged). */
export const DRIFT_MIN_HISTORY_DAYS = 3;
/** Robust z-score (median/MAD, scaled to σ) a day must exceed against own history AND peers. */
export const DRIFT_Z = 3.5;
/** Consecutive drifting days before a sensor is flagged. */
export const DRIFT_DAYS = 2;
/** Floors of the MAD per indicator, so a perfectly steady history does not make noise a drift. */
const MAD_FLOOR: Record<IndicatorKey, number> = { recoveryMinutes: 3, minutesAboveMidpoint: 15, nightAverage: 0.2, dampedRange: 0.2 };

/** Median and MAD (× 1.4826, floored per indicator) of a sample; null on an empty sample. */
export interface RobustCentre {
  median: number;
  spread: number;
}

export function robustCentre(sample: readonly number[], key: IndicatorKey): RobustCentre | null {
  if (sample.length === 0) return null;
  const m = median(sample);
  return { median: m, spread: Math.max(median(sample.map((v) => Math.abs(v - m))) * 1.4826, MAD_FLOOR[key]) };
}

/** Robust z of `value` in `sample` (median/MAD × 1.4826); null on an empty sample. Higher is worse. */
export function robustZ(value: number, sample: readonly number[], key: IndicatorKey): number | null {
  const centre = robustCentre(sample, key);
  return centre && (value - centre.median) / centre.spread;
}

export interface DriftDay {
  day: string; // the caller's day key (YYYYMMDD or YYYY-MM-DD)
  key: IndicatorKey;
  value: number;
  ownMedian: number;
  ownZ: number;
  peerMedian: number;
  peerZ: number;
}

/**
 * The indicators of one day that are worse (higher) than both the sensor's own trailing days
 * (`own`, at most DRIFT_HISTORY_DAYS, at least DRIFT_MIN_HISTORY_DAYS) and its peers that day
 * (`peerCentre`: robustCentre of the peers' values, which a chain-wide job computes once per kind).
 */
export function dayDrifts(day: string, indicators: DailyIndicators, own: readonly DailyIndicators[], peerCentre: (key: IndicatorKey) => RobustCentre | null): DriftDay[] {
  if (own.length < DRIFT_MIN_HISTORY_DAYS) return [];
  const out: DriftDay[] = [];
  for (const key of INDICATOR_KEYS) {
    const value = indicators[key];
    if (value === null) continue;
    const ownCentre = robustCentre(own.map((d) => d[key]).filter((v): v is number => v !== null), key);
    const peers = peerCentre(key);
    if (!ownCentre || !peers) continue;
    const ownZ = (value - ownCentre.median) / ownCentre.spread;
    const peerZ = (value - peers.median) / peers.spread;
    if (ownZ > DRIFT_Z && peerZ > DRIFT_Z) out.push({ day, key, value, ownMedian: ownCentre.median, ownZ, peerMedian: peers.median, peerZ });
  }
  return out;
}

/**
 * Days on which an indicator of this sensor is worse (higher) than both its own trailing history
 * and its peers' values that day. `history` is the sensor's days in order; `peers(day, key)` the
 * same indicator of the other sensors of its furniture kind that day.
 */
export function driftDays(history: readonly { day: string; indicators: DailyIndicators }[], peers: (day: string, key: IndicatorKey) => readonly number[]): DriftDay[] {
  return history.flatMap(({ day, indicators }, i) =>
    dayDrifts(day, indicators, history.slice(Math.max(0, i - DRIFT_HISTORY_DAYS), i).map((d) => d.indicators), (key) => robustCentre(peers(day, key), key)),
  );
}

/** The first day the sensor is flagged: DRIFT_DAYS consecutive days with any drifting indicator. */
export function firstFlaggedDay(history: readonly { day: string }[], drifts: readonly DriftDay[]): string | null {
  const drifting = new Set(drifts.map((d) => d.day));
  let run = 0;
  for (const { day } of history) {
    run = drifting.has(day) ? run + 1 : 0;
    if (run >= DRIFT_DAYS) return day;
  }
  return null;
}

// ---- codes and labels (decision 312) -----------------------------------------------------

/** Each indicator's code (the stored flag's and the API's), labels and unit. */
export const INDICATORS: Readonly<Record<IndicatorKey, { code: string; ja: string; en: string; unit: string }>> = {
  recoveryMinutes: { code: 'recovery_minutes', ja: '霜取り後の復帰時間', en: 'Recovery after defrost', unit: '分' },
  minutesAboveMidpoint: { code: 'minutes_above_midpoint', ja: '上下限の中間より高い時間', en: 'Minutes above the midpoint', unit: '分' },
  nightAverage: { code: 'night_average', ja: '夜間平均温度', en: 'Night average', unit: '℃' },
  dampedRange: { code: 'damped_range', ja: '平滑化温度の日較差', en: 'Damped daily range', unit: '℃' },
};

export type IndicatorCode = (typeof INDICATORS)[IndicatorKey]['code'];

/** The key of a stored or asked indicator code; undefined for an unknown one. */
export function indicatorKeyOf(code: string): IndicatorKey | undefined {
  return INDICATOR_KEYS.find((key) => INDICATORS[key].code === code);
}
