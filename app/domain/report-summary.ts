import { roundTenth } from './format';
import type { ReportSettingsPeriod, ReportSummaryFigures, ReportWindow } from './report-document';
import { inForceAt, type ReadingSeries, type Reading, seriesOf, timedSettings } from './report-rows';

// The one summary rule of a report (issue 29): per sensor, min / max / average and the minutes out
// of range are taken over the readings COUNTED, which are the value readings (errors and empty
// readings left out) outside the excluded windows: the defrost ranges and the alert-stop windows in
// force, where no alert may open. The same figures over ALL value readings are kept beside them,
// so a report can show both where they differ. Coverage is the share of the period's 10-minute
// slots (the buckets' marks, docs/decisions/149) holding at least one value reading. Composable
// over parts of a period (raw readings, whole buckets). No I/O.

const MINUTE = 60_000;
export const SLOT_MS = 10 * MINUTE;

/** What the summary leaves out of the counted figures, as the report states it. */
export const SUMMARY_EXCLUDES_TEXT = '最低・最高・平均・上下限外の時間は、霜取り時間帯とアラート停止時間帯の測定値を除いて算出しています。';

/** Sums of value readings before rounding. */
export interface Figures {
  min: number;
  max: number;
  /** Sum of the values in tenths of a degree (exact integers) and their count. */
  tenths: number;
  count: number;
}

export interface SummaryParts {
  all: Figures;
  counted: Figures;
  /** Distinct minutes with a counted reading outside the limits in force. */
  minutesOutside: number;
  /** 10-minute slots of the period with at least one value reading. */
  slots: number;
}

export const NO_FIGURES: Figures = { min: Infinity, max: -Infinity, tenths: 0, count: 0 };
export const NO_SUMMARY_PARTS: SummaryParts = { all: NO_FIGURES, counted: NO_FIGURES, minutesOutside: 0, slots: 0 };

export const addFigures = (a: Figures, b: Figures): Figures => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max), tenths: a.tenths + b.tenths, count: a.count + b.count });

export function addSummaryParts(a: SummaryParts, b: SummaryParts): SummaryParts {
  return { all: addFigures(a.all, b.all), counted: addFigures(a.counted, b.counted), minutesOutside: a.minutesOutside + b.minutesOutside, slots: a.slots + b.slots };
}

/** The mark of the 10-minute slot a reading at `at` belongs to (the bucket's, report-buckets.ts bucketOf). */
export const slotOf = (at: number) => Math.floor((at + SLOT_MS / 2) / SLOT_MS) * SLOT_MS;

/** The slots of a span [from, until): the marks on the 10-minute grid inside it. */
export function slotSpan(span: { from: number; until: number }): { first: number; count: number } {
  const first = Math.ceil(span.from / SLOT_MS) * SLOT_MS;
  return { first, count: Math.max(0, Math.ceil((span.until - first) / SLOT_MS)) };
}

function rounded(figures: Figures): ReportSummaryFigures {
  const { count } = figures;
  return {
    min: count === 0 ? null : roundTenth(figures.min),
    max: count === 0 ? null : roundTenth(figures.max),
    mean: count === 0 ? null : (Math.sign(figures.tenths) * Math.round(Math.abs(figures.tenths) / count)) / 10 || 0,
    count,
  };
}

export interface SummaryFigures extends ReportSummaryFigures {
  minutesOutside: number;
  /** Every value reading, excluded windows included; null when it is the counted figures (nothing was excluded). */
  all: ReportSummaryFigures | null;
  coverage: { slots: number; withReadings: number };
}

/** The rounded figures of the summary; `slots` is the number of 10-minute slots in the period (slotSpan). */
export function summaryFrom(parts: SummaryParts, slots: number): SummaryFigures {
  const counted = rounded(parts.counted);
  const all = rounded(parts.all);
  return { ...counted, minutesOutside: parts.minutesOutside, all: all.count === counted.count ? null : all, coverage: { slots, withReadings: Math.min(parts.slots, slots) } };
}

/** The summary of readings over a span [from, until): the one rule above. */
export function summaryOf(readings: readonly Reading[] | ReadingSeries, settings: readonly ReportSettingsPeriod[], excluded: readonly ReportWindow[], span: { from: Date; until: Date }): SummaryFigures {
  const bounds = { from: span.from.getTime(), until: span.until.getTime() };
  return summaryFrom(summaryPartsOf(readings, settings, excluded, bounds), slotSpan(bounds).count);
}

/** The summary's sums over readings (one pass in time order, the excluded windows walked alongside); slots count only marks inside `span`. */
export function summaryPartsOf(readings: readonly Reading[] | ReadingSeries, settings: readonly ReportSettingsPeriod[], excluded: readonly ReportWindow[], span: { from: number; until: number }): SummaryParts {
  const series = 'at' in readings && !Array.isArray(readings) ? (readings as ReadingSeries) : seriesOf(readings as readonly Reading[]);
  const windows = excluded.map((w) => [w.from.getTime(), w.to.getTime()] as const).sort((a, b) => a[0] - b[0]);
  const periods = timedSettings(settings);
  const all = { ...NO_FIGURES };
  const counted = { ...NO_FIGURES };
  const outsideMinutes = new Set<number>();
  const slots = new Set<number>();
  const { first, count: slotCount } = slotSpan(span);
  const lastSlot = first + (slotCount - 1) * SLOT_MS;
  let w = 0;
  let ordered = true;
  for (let i = 1; i < series.length && ordered; i++) if (series.at[i] < series.at[i - 1]) ordered = false;
  const add = (figures: Figures, t: number) => {
    if (t < figures.min) figures.min = t;
    if (t > figures.max) figures.max = t;
    figures.tenths += Math.round(t * 10);
    figures.count += 1;
  };
  for (let i = 0; i < series.length; i++) {
    const at = series.at[i];
    if (series.error[i] === 1 || Number.isNaN(series.temperature[i])) continue;
    const t = series.temperature[i];
    add(all, t);
    const slot = slotOf(at);
    if (slot >= first && slot <= lastSlot) slots.add(slot);
    let excludedHere: boolean;
    if (ordered) {
      while (w < windows.length && windows[w][1] <= at) w++;
      // Windows may overlap: any window starting at or before `at` from w on that has not ended.
      excludedHere = false;
      for (let k = w; k < windows.length && windows[k][0] <= at; k++) if (at < windows[k][1]) excludedHere = true;
    } else {
      excludedHere = windows.some(([a, b]) => a <= at && at < b);
    }
    if (excludedHere) continue;
    add(counted, t);
    const inForce = inForceAt(periods, at);
    if (inForce && ((inForce.upper !== null && t > inForce.upper) || (inForce.lower !== null && t < inForce.lower))) outsideMinutes.add(Math.floor(at / MINUTE));
  }
  return { all, counted, minutesOutside: outsideMinutes.size, slots: slots.size };
}

/** A sensor's verdict on the report's first page. */
export type Verdict = 'ok' | 'deviation' | 'lowCoverage' | 'noData';
export const VERDICT_LABELS: Record<Verdict, string> = { ok: '適合', deviation: '逸脱あり', lowCoverage: 'データ不足', noData: 'データなし' };
/** Below this share of slots with readings the period is not shown as kept under control. */
export const COVERAGE_MIN = 0.9;

/** Deviation when a counted reading was outside the limits; else too little data to say; else ok. */
export function verdictOf(summary: Pick<SummaryFigures, 'count' | 'minutesOutside' | 'coverage'>): Verdict {
  if (summary.minutesOutside > 0) return 'deviation';
  if (summary.count === 0) return 'noData';
  return summary.coverage.slots > 0 && summary.coverage.withReadings / summary.coverage.slots < COVERAGE_MIN ? 'lowCoverage' : 'ok';
}
