import { percentile } from '../../support/console';
import type { Lag } from './gateways';
import type { PageGroup, PageTiming } from './users';

// The rig's figures: percentiles per page, the targets of issue 17 part 2 against them, and a
// self-contained HTML page with an inline SVG of latency over time.

const round = (value: number, digits = 1) => Number(value.toFixed(digits));

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function percentiles(values: number[], digits = 1): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return { count: 0, p50: NaN, p95: NaN, p99: NaN, max: NaN };
  return { count: sorted.length, p50: round(percentile(sorted, 0.5), digits), p95: round(percentile(sorted, 0.95), digits), p99: round(percentile(sorted, 0.99), digits), max: round(sorted[sorted.length - 1], digits) };
}

/** Percentiles of lags weighted by their readings, in seconds. */
export function lagPercentiles(lags: Lag[]): Percentiles & { readings: number } {
  const sorted = [...lags].sort((a, b) => a.lagMs - b.lagMs);
  const readings = sorted.reduce((sum, lag) => sum + lag.readings, 0);
  const at = (p: number) => {
    let seen = 0;
    for (const lag of sorted) {
      seen += lag.readings;
      if (seen > p * readings) return round(lag.lagMs / 1000, 2);
    }
    return NaN;
  };
  return { count: sorted.length, readings, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: readings ? round(sorted[sorted.length - 1].lagMs / 1000, 2) : NaN };
}

export function pagePercentiles(timings: PageTiming[]) {
  const byPage = new Map<string, PageTiming[]>();
  for (const timing of timings) byPage.set(timing.page, [...(byPage.get(timing.page) ?? []), timing]);
  return Object.fromEntries(
    [...byPage].map(([page, list]) => [page, { ...percentiles(list.map((t) => t.ms)), not_200: list.filter((t) => t.status !== 200).length }]),
  );
}

interface Target {
  name: string;
  limit: number;
  unit: 'ms' | 's';
  /** The p95 the target is held against: the worst page of the group. */
  p95: number;
}

export function targets(pages: ReturnType<typeof pagePercentiles>, timings: PageTiming[], ingestLagP95: number, mailP95: number, probesMailed: boolean): (Target & { holds: boolean })[] {
  const worst = (group: PageGroup) => {
    const names = new Set(timings.filter((t) => t.group === group).map((t) => t.page));
    return Math.max(...[...names].map((name) => pages[name].p95));
  };
  const list: Target[] = [
    { name: 'every dashboard page and filter (last page and name search included) p95', limit: 50, unit: 'ms', p95: worst('dashboard') },
    { name: 'sensor views p95', limit: 50, unit: 'ms', p95: worst('sensor view') },
    { name: 'day graph p95', limit: 50, unit: 'ms', p95: worst('day graph') },
    { name: 'month graph p95', limit: 200, unit: 'ms', p95: worst('month graph') },
    { name: 'ingest lag p95', limit: 2, unit: 's', p95: ingestLagP95 },
    { name: 'reading → alert mail p95', limit: 5, unit: 's', p95: probesMailed ? mailP95 : NaN },
  ];
  return list.map((target) => ({ ...target, holds: target.p95 <= target.limit }));
}

// ---- the chart ---------------------------------------------------------------------------------

const WINDOW_MS = 10_000;
const COLOURS: Record<string, string> = {
  dashboard: '#2563eb',
  'sensor view': '#16a34a',
  'day graph': '#d97706',
  'month graph': '#dc2626',
  'alert history': '#7c3aed',
  'first load': '#64748b',
  'ingest lag': '#0f172a',
  'alert mail': '#db2777',
};

interface Series {
  name: string;
  points: [number, number][];
}

/** p95 per 10-s window of each page group (ms), and of the ingest lag and alert mails (s). */
export function latencySeries(start: number, timings: PageTiming[], lags: Lag[], mails: { at: number; ms: number }[]): { pages: Series[]; seconds: Series[] } {
  const windows = <T>(items: T[], at: (item: T) => number, value: (item: T) => number[]): [number, number][] => {
    const groups = new Map<number, number[]>();
    for (const item of items) {
      if (at(item) < start) continue; // the warm-up probe
      const w = Math.floor((at(item) - start) / WINDOW_MS);
      groups.set(w, [...(groups.get(w) ?? []), ...value(item)]);
    }
    return [...groups].sort(([a], [b]) => a - b).map(([w, values]) => [((w + 0.5) * WINDOW_MS) / 1000, percentiles(values).p95]);
  };
  const groups = [...new Set(timings.map((t) => t.group))];
  return {
    pages: groups.map((group) => ({ name: group, points: windows(timings.filter((t) => t.group === group), (t) => t.at, (t) => [t.ms]) })),
    seconds: [
      // A batch's lag once per reading would be heavy: at most 20 copies of it weigh it enough for a p95.
      { name: 'ingest lag', points: windows(lags, (l) => l.at, (l) => Array<number>(Math.min(l.readings, 20)).fill(l.lagMs / 1000)) },
      { name: 'alert mail', points: windows(mails, (m) => m.at, (m) => [m.ms / 1000]) },
    ],
  };
}

/** A self-contained HTML page: two SVG panels (pages in ms; ingest lag and mail in s) over the run. */
export function chartHtml(title: string, subtitle: string, series: ReturnType<typeof latencySeries>, durationS: number): string {
  const panel = (label: string, list: Series[], limits: { value: number; text: string }[]) => {
    const width = 900;
    const height = 300;
    const left = 60;
    const bottom = 30;
    const max = Math.max(1, ...list.flatMap((s) => s.points.map(([, y]) => y)), ...limits.map((l) => l.value)) * 1.1;
    const x = (t: number) => left + (t / Math.max(1, durationS)) * (width - left - 10);
    const y = (v: number) => height - bottom - (v / max) * (height - bottom - 10);
    const ticks = Array.from({ length: 6 }, (_, i) => (max / 5) * i);
    const lines = list
      .filter((s) => s.points.length > 0)
      .map((s) => `<polyline fill="none" stroke="${COLOURS[s.name] ?? '#000'}" stroke-width="2" points="${s.points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"><title>${s.name}</title></polyline>`);
    const limitLines = limits.map((l) => `<line x1="${left}" x2="${width - 10}" y1="${y(l.value)}" y2="${y(l.value)}" stroke="#94a3b8" stroke-dasharray="4 4"/><text x="${width - 12}" y="${y(l.value) - 3}" text-anchor="end" font-size="11" fill="#64748b">${l.text}</text>`);
    const axis = ticks.map((v) => `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11">${v < 10 ? v.toFixed(1) : Math.round(v)}</text><line x1="${left}" x2="${width - 10}" y1="${y(v)}" y2="${y(v)}" stroke="#e2e8f0"/>`);
    const timeTicks = Array.from({ length: 7 }, (_, i) => (durationS / 6) * i).map((t) => `<text x="${x(t)}" y="${height - 10}" text-anchor="middle" font-size="11">${Math.round(t)} s</text>`);
    const legend = list.map((s) => `<span style="color:${COLOURS[s.name] ?? '#000'};margin-right:14px">■ ${s.name}</span>`).join('');
    return `<h2>${label}</h2><div>${legend}</div><svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">${axis.join('')}${limitLines.join('')}${lines.join('')}${timeTicks.join('')}</svg>`;
  };
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;margin:20px">
<h1 style="font-size:20px">${title}</h1><p>${subtitle}</p>
${panel('Pages: p95 per 10 s (ms)', series.pages, [{ value: 50, text: '50 ms' }, { value: 200, text: '200 ms (month graph)' }])}
${panel('Ingest lag and reading → alert mail: p95 per 10 s (s)', series.seconds, [{ value: 2, text: '2 s (ingest)' }, { value: 5, text: '5 s (mail)' }])}
</body></html>`;
}
