import type { ReportSettingsPeriod, ReportWindow } from './report-document';
import { type ReadingSeries, type TimedSettings, timedSettings } from './report-rows';
import { addFigures, type Figures, NO_FIGURES, type SummaryParts } from './report-summary';

// Report collection from the 10-minute buckets (measurement_buckets, docs/decisions/149): a bucket
// whose aggregates answer everything the report asks is used as it is; the others are read as raw
// readings. Raw are: buckets cut by the period's ends, with error or empty readings (where the
// chart's line breaks), holding a table time off its mark, or with a value outside the limits of a
// settings period in force during them, unless the whole bucket is inside an excluded (defrost,
// alert-stop) window (so the minutes outside are counted reading by reading, as before), and those
// an excluded window cuts (the summary counts their readings one by one, report-summary.ts). Limits,
// defrost ranges and alert stops are applied at report time, so windows added after the fact count.
// No I/O.

const MINUTE = 60_000;
export const BUCKET_MS = 10 * MINUTE;
const HALF = BUCKET_MS / 2;

/** The buckets of one sensor in time order, as typed arrays; NaN where a value is none. */
export interface BucketSeries {
  length: number;
  /** The bucket's instant (ms): readings within 5 minutes before and after it. */
  bucket: Float64Array;
  gaps: Float64Array;
  count: Float64Array;
  tenths: Float64Array;
  min: Float64Array;
  minAt: Float64Array;
  max: Float64Array;
  maxAt: Float64Array;
  /**
   * The last reading within the bucket's own minute (the table's reading at the mark): its
   * temperature, and 1 for an error, 0 for none, NaN when the minute has no reading. The table
   * looks readings up by minute, so the bucket's instant stands for the mark's.
   */
  markTemperature: Float64Array;
  markError: Float64Array;
}

export const BUCKET_FIELDS = ['bucket', 'gaps', 'count', 'tenths', 'min', 'minAt', 'max', 'maxAt', 'markTemperature', 'markError'] as const;

export function emptyBuckets(length = 0): BucketSeries {
  const series = { length } as BucketSeries;
  for (const field of BUCKET_FIELDS) series[field] = new Float64Array(length);
  return series;
}

/** The 10-minute bucket (its mark) a reading at `at` belongs to. */
export const bucketOf = (at: number) => Math.floor((at + HALF) / BUCKET_MS) * BUCKET_MS;

export interface BucketPlan {
  /** 1 where the bucket's aggregates are used, 0 where its readings are read raw. */
  use: Uint8Array;
  /** The instants [from, to) to read raw, merged, in time order. */
  raw: [number, number][];
  /** 1 where a used bucket lies wholly inside an excluded window: its readings count in the summary's "all" figures only. */
  excluded: Uint8Array;
}

/**
 * Which buckets to use and which ranges to read raw, for a period [from, until). Without a chart
 * (a CSV) a bucket with error or empty readings is used too: only the chart's line breaks there, the
 * table reads its mark and the summary's sums leave errors out.
 */
export function planBuckets(
  buckets: BucketSeries,
  span: { from: number; until: number },
  tableTimes: Float64Array,
  settings: readonly ReportSettingsPeriod[],
  excluded: readonly ReportWindow[],
  options: { chart: boolean } = { chart: true },
): BucketPlan {
  const use = new Uint8Array(buckets.length);
  const excludedBuckets = new Uint8Array(buckets.length);
  const raw: [number, number][] = [];
  const offMark = new Set(tableTimes.filter((at) => bucketOf(at) !== at).map(bucketOf));
  const periods = timedSettings(settings);
  const excludedOverlap = excludedOverlapOf(excluded);
  for (let i = 0; i < buckets.length; i++) {
    const lo = buckets.bucket[i] - HALF;
    const hi = buckets.bucket[i] + HALF;
    const answerable = lo >= span.from && hi <= span.until && !offMark.has(buckets.bucket[i]) && (!options.chart || buckets.gaps[i] === 0);
    const overlap = excludedOverlap(lo, hi);
    // A bucket wholly excluded is used as it is; one an excluded window cuts is read raw (its readings split between the summary's figures); a change of settings counts no minute outside when none of its values is outside any limits in force during it.
    if (answerable && (overlap === 'whole' || (overlap === 'none' && withinEveryLimits(buckets, i, lo, hi, periods)))) {
      use[i] = 1;
      if (overlap === 'whole') excludedBuckets[i] = 1;
      continue;
    }
    const from = Math.max(lo, span.from);
    const to = Math.min(hi, span.until);
    if (from >= to) continue;
    const last = raw[raw.length - 1];
    if (last && last[1] === from) last[1] = to;
    else raw.push([from, to]);
  }
  return { use, raw, excluded: excludedBuckets };
}

/**
 * How the excluded stretches (windows merged) meet a span [lo, hi): not at all, wholly, or in part;
 * for spans asked in time order: walked once (a month has a defrost window or more a day, and
 * thousands of buckets).
 */
function excludedOverlapOf(windows: readonly ReportWindow[]): (lo: number, hi: number) => 'none' | 'whole' | 'part' {
  const merged: [number, number][] = [];
  for (const [from, to] of windows.map((w) => [w.from.getTime(), w.to.getTime()] as const).sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else if (from < to) merged.push([from, to]);
  }
  let w = 0;
  return (lo, hi) => {
    while (w < merged.length && merged[w][1] <= lo) w++;
    if (w >= merged.length || merged[w][0] >= hi) return 'none';
    return merged[w][0] <= lo && merged[w][1] >= hi ? 'whole' : 'part';
  };
}

const outside = (buckets: BucketSeries, i: number, limits: TimedSettings) => (limits.upper !== null && buckets.max[i] > limits.upper) || (limits.lower !== null && buckets.min[i] < limits.lower);

/** No value of the bucket [lo, hi) is outside the limits of any settings that may be in force during it (inForceAt's rule). */
function withinEveryLimits(buckets: BucketSeries, i: number, lo: number, hi: number, periods: readonly TimedSettings[]): boolean {
  if (buckets.count[i] === 0 || periods.length === 0) return true;
  let covered = false;
  for (const period of periods) {
    if (period.to <= lo || hi <= period.from) continue;
    if (outside(buckets, i, period)) return false;
    if (period.from <= lo && hi <= period.to) covered = true;
  }
  // An instant no period holds falls back to the first.
  return covered || !outside(buckets, i, periods[0]);
}

/** The summary's sums over the used buckets (no minute outside by the plan's rule; a wholly excluded bucket counts in "all" only; each holds one slot). */
export function bucketSummaryParts(buckets: BucketSeries, plan: Pick<BucketPlan, 'use' | 'excluded'>): SummaryParts {
  let all: Figures = NO_FIGURES;
  let counted: Figures = NO_FIGURES;
  let slots = 0;
  for (let i = 0; i < buckets.length; i++) {
    if (plan.use[i] === 0 || buckets.count[i] === 0) continue;
    const own = { min: buckets.min[i], max: buckets.max[i], tenths: buckets.tenths[i], count: buckets.count[i] };
    all = addFigures(all, own);
    if (plan.excluded[i] === 0) counted = addFigures(counted, own);
    slots++;
  }
  return { all, counted, minutesOutside: 0, slots };
}

/** Whether a used bucket holds any reading (a value, an error or an empty reading). */
export function usedBucketsHaveReadings(buckets: BucketSeries, use: Uint8Array): boolean {
  for (let i = 0; i < buckets.length; i++) if (use[i] === 1 && buckets.count[i] + buckets.gaps[i] > 0) return true;
  return false;
}

/**
 * The used buckets as readings, merged in time order with the raw ones: for the table, each
 * bucket's mark reading; for the chart, its lowest and highest reading (at their instants).
 */
export function bucketReadings(buckets: BucketSeries, use: Uint8Array, raw: ReadingSeries, kind: 'mark' | 'extremes'): ReadingSeries {
  const size = raw.length + (kind === 'mark' ? 1 : 2) * buckets.length + 1;
  const at = new Float64Array(size);
  const temperature = new Float64Array(size);
  const error = new Uint8Array(size);
  let n = 0;
  let r = 0;
  const push = (ms: number, t: number, e: number) => {
    for (; r < raw.length && raw.at[r] < ms; r++, n++) {
      at[n] = raw.at[r];
      temperature[n] = raw.temperature[r];
      error[n] = raw.error[r];
    }
    at[n] = ms;
    temperature[n] = t;
    error[n] = e;
    n++;
  };
  for (let i = 0; i < buckets.length; i++) {
    if (use[i] === 0) continue;
    if (kind === 'mark') {
      if (!Number.isNaN(buckets.markError[i])) push(buckets.bucket[i], buckets.markTemperature[i], buckets.markError[i]);
    } else if (buckets.count[i] > 0) {
      const minFirst = buckets.minAt[i] <= buckets.maxAt[i];
      push(minFirst ? buckets.minAt[i] : buckets.maxAt[i], minFirst ? buckets.min[i] : buckets.max[i], 0);
      if (buckets.minAt[i] !== buckets.maxAt[i]) push(minFirst ? buckets.maxAt[i] : buckets.minAt[i], minFirst ? buckets.max[i] : buckets.min[i], 0);
    }
  }
  push(Infinity, NaN, 0);
  n--;
  return { length: n, at: at.subarray(0, n), temperature: temperature.subarray(0, n), error: error.subarray(0, n) };
}
