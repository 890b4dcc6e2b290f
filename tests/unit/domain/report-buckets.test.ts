import { describe, expect, it } from 'vitest';
import type { ReportSettingsPeriod } from '~/domain/report-document';
import { BUCKET_MS, emptyBuckets, planBuckets } from '~/domain/report-buckets';

// Which 10-minute buckets a report answers from their aggregates (docs/decisions/149, 202).

const HALF = BUCKET_MS / 2;
const start = Date.UTC(2026, 9, 1, 0, 0);
const settings: ReportSettingsPeriod[] = [{ from: new Date(start - 86_400_000), to: null, lowerLimit: 0, upperLimit: 10, defrost: [] }];

/** Buckets at start + 10 min × i, each with 10 readings between `min` and `max`, and `gaps` error or empty readings. */
function buckets(values: { min: number; max: number; gaps?: number }[]) {
  const series = emptyBuckets(values.length);
  values.forEach((value, i) => {
    series.bucket[i] = start + (i + 1) * BUCKET_MS;
    series.count[i] = 10;
    series.min[i] = value.min;
    series.max[i] = value.max;
    series.gaps[i] = value.gaps ?? 0;
  });
  return series;
}

const span = { from: start, until: start + 10 * BUCKET_MS };
const times = Float64Array.from({ length: 9 }, (_, i) => start + (i + 1) * BUCKET_MS);
// A defrost window from the middle of the second bucket to the end of the third.
const window = [{ from: new Date(start + 2 * BUCKET_MS), to: new Date(start + 3 * BUCKET_MS + HALF) }];

describe('planBuckets', () => {
  it('reads raw a bucket cut by a window edge even within the limits (the summary splits its readings), and marks a bucket wholly inside the window', () => {
    const plan = planBuckets(buckets([{ min: 2, max: 8 }, { min: 2, max: 8 }, { min: 2, max: 8 }]), span, times, settings, window);
    expect([...plan.use]).toEqual([1, 0, 1]);
    expect([...plan.excluded]).toEqual([0, 0, 1]);
    expect(plan.raw).toEqual([[start + 2 * BUCKET_MS - HALF, start + 2 * BUCKET_MS + HALF]]);
  });

  it('reads raw a cut bucket with a value outside the limits, but not a bucket wholly inside the window', () => {
    const plan = planBuckets(buckets([{ min: 2, max: 8 }, { min: 2, max: 12 }, { min: 2, max: 12 }]), span, times, settings, window);
    expect([...plan.use]).toEqual([1, 0, 1]);
    expect(plan.raw).toEqual([[start + 2 * BUCKET_MS - HALF, start + 2 * BUCKET_MS + HALF]]);
  });

  it('reads raw a bucket cut by a change of limits whose value is outside the new ones', () => {
    const change = new Date(start + BUCKET_MS);
    const limits: ReportSettingsPeriod[] = [{ ...settings[0], to: change }, { ...settings[0], from: change, upperLimit: 7 }];
    const plan = planBuckets(buckets([{ min: 2, max: 8 }, { min: 2, max: 6 }]), span, times, limits, []);
    expect([...plan.use]).toEqual([0, 1]);
  });

  it('reads raw a bucket with error or empty readings for the chart only', () => {
    const series = buckets([{ min: 2, max: 8, gaps: 1 }]);
    expect([...planBuckets(series, span, times, settings, []).use]).toEqual([0]);
    expect([...planBuckets(series, span, times, settings, [], { chart: false }).use]).toEqual([1]);
  });
});
