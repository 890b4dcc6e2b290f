import { describe, expect, it } from 'vitest';
import { fromJapan } from '~/domain/japan-time';
import type { ReportSettingsPeriod } from '~/domain/report-document';
import { chartPoints, type Reading, seriesOf, tableRows, tableTimes } from '~/domain/report-rows';
import { summaryOf } from '~/domain/report-summary';
import { rowsOf } from '../../support/report-sample';

// Report collection on typed arrays (docs/decisions/148-report-speed.md): the same rows and
// summary as from reading objects, and chart points that keep each part's extremes and the breaks.

const MIN = 60_000;
const from = fromJapan(2026, 10, 1);
const settings: ReportSettingsPeriod[] = [{ from, to: null, lowerLimit: 0, upperLimit: 10, defrost: [{ start: '03:00', end: '03:30' }] }];

function month(): Reading[] {
  const readings: Reading[] = [];
  for (let i = 0; i < 31 * 24 * 60; i++) {
    const at = new Date(from.getTime() + i * MIN);
    readings.push({ at, temperature: i === 5000 ? 25 : i === 9000 ? -7 : i >= 20000 && i < 20005 ? null : 4 + Math.sin(i / 90) * 3, error: i === 30000 });
  }
  return readings;
}

describe('report collection on typed arrays', () => {
  it('prints the same table rows and summary from a series as from reading objects', () => {
    const readings = month();
    const times = Float64Array.from(tableTimes({ from, to: new Date(from.getTime() + (31 * 24 * 60 - 10) * MIN) }, { kind: 'every', minutes: 10 }), (at) => at.getTime());
    const series = seriesOf(readings);
    expect(tableRows(times, series, settings)).toEqual(tableRows(times, readings, settings));
    const rows = rowsOf(tableRows(times, series, settings));
    expect(rows.find((row) => row.at.getTime() === from.getTime() + 30000 * MIN)?.kind).toBe('error');
    expect(rows.find((row) => row.at.getTime() === from.getTime() + 20000 * MIN)?.kind).toBe('missing');
    expect(rows.find((row) => row.at.getTime() === fromJapan(2026, 10, 2, 3, 10).getTime())?.kind).toBe('defrost');
    const excluded = [{ from: new Date(from.getTime() + 8990 * MIN), to: new Date(from.getTime() + 9010 * MIN) }];
    const span = { from, until: new Date(from.getTime() + 31 * 24 * 60 * MIN) };
    const summary = summaryOf(series, settings, excluded, span);
    // The counted figures and the minutes outside leave the excluded windows out; "all" takes every reading.
    expect(summary).toMatchObject({ min: expect.any(Number), max: 25, all: { min: -7, max: 25 } });
    expect(summary.min).toBeGreaterThan(0);
    // The -7 minute is inside an excluded window; the 25 minute counts once.
    expect(summary.minutesOutside).toBe(1);
    // Out of order and overlapping windows give the same count.
    expect(summaryOf([...readings].reverse(), settings, [...excluded, { from: new Date(from.getTime() + 8995 * MIN), to: new Date(from.getTime() + 9001 * MIN) }], span)).toEqual(summary);
  });

  it('thins a month of minutes to at most first, min, max and last per part, keeping the extremes and the breaks', () => {
    const series = seriesOf(month());
    const to = from.getTime() + 31 * 24 * 60 * MIN;
    const thin = chartPoints(series, from.getTime(), to, 500);
    const points = Array.from(thin.at, (at, i) => ({ at: new Date(at), temperature: Number.isNaN(thin.temperature[i]) ? null : thin.temperature[i] }));
    expect(points.length).toBeLessThanOrEqual(500 * 4 + 10);
    expect(points.some((p) => p.temperature === 25)).toBe(true);
    expect(points.some((p) => p.temperature === -7)).toBe(true);
    // The run of empty readings and the error each break the line once.
    expect(points.filter((p) => p.temperature === null).map((p) => (p.at.getTime() - from.getTime()) / MIN)).toEqual([20000, 30000]);
    for (let i = 1; i < points.length; i++) expect(points[i].at.getTime()).toBeGreaterThanOrEqual(points[i - 1].at.getTime());
    // A short series is kept whole.
    expect(chartPoints(seriesOf(month().slice(0, 100)), from.getTime(), to, 500).length).toBe(100);
  });
});
