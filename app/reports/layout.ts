// The pure half of the report PDF: what each page says and where the chart's lines go, computed
// from a ReportDocument without pdfmake, so it is unit-tested alone (tests/unit/reports/). The
// renderer (pdf.server.ts) only turns these shapes and strings into pdfmake nodes.
import { formatDate, formatDateTime, japanParts } from '~/domain/japan-time';
import { acknowledgementText, ACKNOWLEDGEMENT_LABELS } from '~/domain/alert-history';
import { formatDegrees, formatTemperature, MISSING_TEXT } from '~/domain/format';
import { type ReportDocument, type ReportInterval, type ReportPoints, type ReportSensor, type ReportSettingsPeriod, type ReportSummary, type ReportSummaryFigures, type ReportTable, type ReportWindow, ROW_KIND } from '~/domain/report-document';

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY/MM/DD HH:mm 〜 YYYY/MM/DD HH:mm' in Japan time. */
export function periodText(period: { from: Date; to: Date }): string {
  return `${formatDateTime(period.from)} 〜 ${formatDateTime(period.to)}`;
}

/** The line printed at the top of every page: store number and name, and the period. */
export function pageHeaderText(doc: Pick<ReportDocument, 'store' | 'period'>): string {
  return `${doc.store.storeNo} ${doc.store.storeName}\u3000期間: ${periodText(doc.period)}`;
}

/** The page number line at the bottom of every page. */
export function pageFooterText(page: number, pages: number): string {
  return `${page} / ${pages} ページ`;
}

// A Japanese character (CJK punctuation, kana, kanji, full-width forms) with its trailing spaces | a word with its trailing spaces | leading spaces.
const WORDS = /[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]\s*|[^\s\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]+\s*|\s+/g;

/**
 * A text in the pieces pdfmake lays out and writes one by one: words with their trailing spaces,
 * and each Japanese character alone (no kerning between pieces, a line may break between any two).
 */
export function lineWords(text: string): string[] {
  return text.match(WORDS) ?? [];
}

/** A line cut to `width` where pdfmake would cut it (between pieces); a piece wider than the line stays whole. */
export function wrapLine(text: string, width: number, widthOf: (text: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of lineWords(text)) {
    if (line !== '' && widthOf((line + word).trimEnd()) > width) {
      lines.push(line);
      line = word;
    } else {
      line += word;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/** A table row's time: MM/DD HH:mm in Japan time. */
export function rowTime(at: Date): string {
  const p = japanParts(at);
  return `${pad(p.month)}/${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}`;
}

/** rowTime remembered per instant, for one report: its sensors' tables have the same times. */
export function rememberedRowTime(): (at: number) => string {
  const times = new Map<number, string>();
  return (at) => {
    let time = times.get(at);
    if (time === undefined) {
      time = rowTime(new Date(at));
      times.set(at, time);
    }
    return time;
  };
}

/** How a table row's value prints: one decimal, --, ERROR or DEF. */
export function rowValue(table: ReportTable, row: number): string {
  switch (table.kind[row]) {
    case ROW_KIND.value:
      return formatTemperature(table.temperature[row]);
    case ROW_KIND.error:
      return 'ERROR';
    case ROW_KIND.defrost:
      return 'DEF';
    default:
      return MISSING_TEXT;
  }
}

/** One column of a table block: rows `from` to `to` (excluded). */
export interface BlockColumn {
  from: number;
  to: number;
}

/**
 * The data table laid out in page blocks: each block is `columns` columns of at most `lines`
 * rows, filled top to bottom then left to right, so a month at 10 minutes takes few pages and
 * the renderer draws each block's rows in one text object.
 */
export function tableBlocks(rowCount: number, lines: number, columns: number): BlockColumn[][] {
  const perBlock = lines * columns;
  const blocks: BlockColumn[][] = [];
  for (let start = 0; start < rowCount; start += perBlock) {
    const block: BlockColumn[] = [];
    for (let from = start; from < Math.min(start + perBlock, rowCount); from += lines) block.push({ from, to: Math.min(from + lines, rowCount) });
    blocks.push(block);
  }
  return blocks;
}

/** How the interval reads on the cover. */
export function intervalText(interval: ReportInterval): string {
  return interval.kind === 'every' ? `${interval.minutes}分ごと` : `指定時刻 ${interval.times.join(', ')}`;
}

/** One settings period as a cover line: the dates it covers, the limits and the defrost ranges. */
export function settingsText(period: ReportSettingsPeriod, reportPeriod: { from: Date; to: Date }): string {
  const from = period.from < reportPeriod.from ? reportPeriod.from : period.from;
  const to = period.to === null || period.to > reportPeriod.to ? reportPeriod.to : period.to;
  const defrost = period.defrost.length === 0 ? 'なし' : period.defrost.map((d) => `${d.start}-${d.end}`).join(', ');
  return `${formatDateTime(from)} 〜 ${formatDateTime(to)}\u3000下限 ${formatDegrees(period.lowerLimit)}\u3000上限 ${formatDegrees(period.upperLimit)}\u3000霜取り ${defrost}`;
}

// ---- chart geometry ---------------------------------------------------------------------------

export interface ChartBox {
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface ChartGeometry {
  /** The temperature line as polylines, broken where readings are missing. */
  line: Point[][];
  /** Step lines of the lower and upper limits following the settings periods (empty when none). */
  lower: Point[][];
  upper: Point[][];
  defrost: { x: number; width: number }[];
  stops: { x: number; width: number }[];
  yTicks: { y: number; label: string }[];
  xTicks: { x: number; label: string }[];
  /** True when the period has no reading to draw. */
  empty: boolean;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A step of 1, 2 or 5 × 10^n that gives about `count` ticks over `span`. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / magnitude;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * magnitude;
}

/**
 * Reduces a series to at most ~4 points per horizontal bucket (first, min, max, last), so a month
 * of one-minute readings draws as the same line with a few thousand points. NaNs break the line
 * and are kept as breaks.
 */
export function decimate(points: ReportPoints, from: number, to: number, buckets: number): ReportPoints {
  if (points.length <= buckets * 4) return points;
  const span = Math.max(1, to - from);
  // Each point is kept at most once: the arrays are cut to what was kept.
  const out = { at: new Float64Array(points.length), temperature: new Float64Array(points.length) };
  let n = 0;
  const keep = (i: number) => {
    out.at[n] = points.at[i];
    out.temperature[n++] = points.temperature[i];
  };
  const time = (i: number) => points.at[i];
  const value = (i: number) => points.temperature[i];
  // The current group: the readings start..end (excluded) of one bucket, none a break, kept as indexes (no object per reading).
  let bucket = -1;
  let start = 0;
  let end = 0;
  const flush = () => {
    if (end === start) return;
    if (end - start <= 4) {
      for (let i = start; i < end; i++) keep(i);
    } else {
      let min = start;
      let max = start;
      for (let i = start; i < end; i++) {
        if (value(i) < value(min)) min = i;
        if (value(i) > value(max)) max = i;
      }
      // First, min, max and last in time order (stable), each once.
      const picked = [start, min, max, end - 1];
      for (let i = 1; i < picked.length; i++) for (let j = i; j > 0 && time(picked[j - 1]) > time(picked[j]); j--) [picked[j - 1], picked[j]] = [picked[j], picked[j - 1]];
      for (let i = 0; i < picked.length; i++) if (i === 0 || picked[i] !== picked[i - 1]) keep(picked[i]);
    }
    start = end;
  };
  for (let i = 0; i < points.length; i++) {
    const b = Math.floor(((time(i) - from) / span) * buckets);
    if (b !== bucket) {
      flush();
      start = end = i;
      bucket = b;
    }
    if (Number.isNaN(value(i))) {
      flush();
      keep(i);
      start = end = i + 1;
    } else {
      end = i + 1;
    }
  }
  flush();
  return { length: n, at: out.at.subarray(0, n), temperature: out.temperature.subarray(0, n) };
}

function clipWindows(windows: readonly ReportWindow[], from: number, to: number, x: (t: number) => number): { x: number; width: number }[] {
  const out: { x: number; width: number }[] = [];
  for (const w of windows) {
    const a = Math.max(from, w.from.getTime());
    const b = Math.min(to, w.to.getTime());
    if (b <= a) continue;
    const x0 = x(a);
    const width = Math.max(0.3, x(b) - x0);
    const last = out[out.length - 1];
    // Touching windows are drawn as one band.
    if (last && Math.abs(last.x + last.width - x0) < 0.01) last.width = round2(x0 + width - last.x);
    else out.push({ x: round2(x0), width: round2(width) });
  }
  return out;
}

function stepLines(settings: readonly ReportSettingsPeriod[], key: 'lowerLimit' | 'upperLimit', from: number, to: number, x: (t: number) => number, y: (v: number) => number): Point[][] {
  const lines: Point[][] = [];
  let previous: Point | null = null;
  for (const s of settings) {
    const value = s[key];
    const a = Math.max(from, s.from.getTime());
    const b = Math.min(to, s.to === null ? to : s.to.getTime());
    if (value === null || b <= a) {
      previous = null;
      continue;
    }
    const x0 = round2(x(a));
    const x1 = round2(x(b));
    const yy = round2(y(value));
    // A step: a vertical line from the previous period's level when they touch.
    if (previous && Math.abs(previous.x - x0) < 0.01) lines[lines.length - 1].push({ x: x0, y: yy }, { x: x1, y: yy });
    else lines.push([{ x: x0, y: yy }, { x: x1, y: yy }]);
    previous = { x: x1, y: yy };
  }
  return lines;
}

/** Day ticks for periods of more than two days, hour ticks otherwise (Japan time). */
function timeTicks(from: number, to: number, x: (t: number) => number): { x: number; label: string }[] {
  const hours = (to - from) / 3_600_000;
  const ticks: { x: number; label: string }[] = [];
  if (hours > 48) {
    const days = Math.ceil(hours / 24);
    const every = days > 21 ? 5 : days > 8 ? 2 : 1;
    const start = japanParts(new Date(from));
    // Japan midnight of the first day, then every `every` days.
    const firstMidnight = from - ((start.hour * 60 + start.minute) * 60_000 + start.second * 1000 + start.millisecond);
    for (let t = firstMidnight, i = 0; t <= to; t += 86_400_000, i++) {
      if (t < from || i % every !== 0) continue;
      ticks.push({ x: round2(x(t)), label: formatDate(new Date(t)).slice(5) });
    }
  } else {
    const every = hours > 24 ? 6 : 3;
    const start = japanParts(new Date(from));
    const firstHour = from - (start.minute * 60_000 + start.second * 1000 + start.millisecond);
    for (let t = firstHour; t <= to; t += 3_600_000) {
      if (t < from) continue;
      const p = japanParts(new Date(t));
      if (p.hour % every !== 0) continue;
      ticks.push({ x: round2(x(t)), label: p.hour === 0 ? `${pad(p.month)}/${pad(p.day)}` : `${pad(p.hour)}:00` });
    }
  }
  return ticks;
}

/** Where everything of one sensor's chart goes in a box of the given size (y grows downwards). */
export function chartGeometry(sensor: Pick<ReportSensor, 'points' | 'settings' | 'defrostWindows' | 'stopWindows'>, period: { from: Date; to: Date }, box: ChartBox): ChartGeometry {
  const from = period.from.getTime();
  const to = Math.max(from + 60_000, period.to.getTime());
  const series = decimate(sensor.points, from, to, Math.ceil(box.width));
  const values: number[] = [];
  for (let i = 0; i < series.length; i++) if (!Number.isNaN(series.temperature[i])) values.push(series.temperature[i]);
  const empty = values.length === 0;
  for (const s of sensor.settings) {
    if (s.lowerLimit !== null) values.push(s.lowerLimit);
    if (s.upperLimit !== null) values.push(s.upperLimit);
  }
  let lo = values.length ? Math.min(...values) : 0;
  let hi = values.length ? Math.max(...values) : 10;
  if (hi - lo < 2) {
    lo -= 1;
    hi += 1;
  }
  const step = niceStep(hi - lo, 5);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const x = (t: number) => ((t - from) / (to - from)) * box.width;
  const y = (v: number) => box.height - ((v - lo) / (hi - lo)) * box.height;

  const line: Point[][] = [];
  let current: Point[] | null = null;
  for (let i = 0; i < series.length; i++) {
    const t = series.at[i];
    const v = series.temperature[i];
    if (Number.isNaN(v) || t < from || t > to) {
      current = null;
      continue;
    }
    if (!current) {
      current = [];
      line.push(current);
    }
    current.push({ x: round2(x(t)), y: round2(y(v)) });
  }
  const yTicks: { y: number; label: string }[] = [];
  const decimals = step < 1 ? 1 : 0;
  for (let v = lo; v <= hi + step / 1000; v += step) yTicks.push({ y: round2(y(v)), label: v.toFixed(decimals) });

  return {
    line,
    lower: stepLines(sensor.settings, 'lowerLimit', from, to, x, y),
    upper: stepLines(sensor.settings, 'upperLimit', from, to, x, y),
    defrost: clipWindows(sensor.defrostWindows, from, to, x),
    stops: clipWindows(sensor.stopWindows, from, to, x),
    yTicks,
    xTicks: timeTicks(from, to, x),
    empty,
  };
}

/** The comment and summary sections' headings and cells, as the PDF and the CSV print them (docs/decisions/155). */
export const SECTION_TEXTS = {
  comments: 'コメント',
  noComments: 'コメントはありません',
  commentHeader: ['日時', 'コメント', '記入者'],
  summary: 'サマリー',
  summaryHeader: ['最低', '最高', '平均', '上下限外の時間', 'データ取得率'],
  /** The figures over every reading, printed under the counted ones when they differ. */
  allReadings: '全測定値（除外時間帯を含む）',
  alertHeader: ['アラート', '発生', '復旧', '停止', '停止者', '改善措置(コメント)', ACKNOWLEDGEMENT_LABELS.reportColumn],
  noAlerts: 'この期間のアラートはありません',
} as const;

export function commentCells(comment: NonNullable<ReportSensor['comments']>[number]): string[] {
  return [formatDateTime(comment.at), comment.comment, comment.userName ?? MISSING_TEXT];
}

export function alertCells(alert: NonNullable<ReportSensor['summary']>['alerts'][number]): string[] {
  const at = (instant: Date | null) => (instant ? formatDateTime(instant) : MISSING_TEXT);
  return [alert.label, formatDateTime(alert.startedAt), at(alert.recoveredAt), at(alert.stoppedAt), alert.stoppedBy ?? MISSING_TEXT, alert.stopComment ?? MISSING_TEXT, acknowledgementText(alert) ?? MISSING_TEXT];
}

/** The coverage as a percentage with one decimal (`--` for a period without slots). */
export function coverageText(coverage: ReportSummary['coverage'], units: boolean): string {
  if (coverage.slots === 0) return MISSING_TEXT;
  const percent = (Math.floor((coverage.withReadings / coverage.slots) * 1000) / 10).toFixed(1);
  return units ? `${percent}%` : percent;
}

/** min, max, mean, the minutes outside and the coverage (readings counted, report-summary.ts): with their units in the PDF, bare numbers in the CSV (Excel reads them as numbers). */
export function summaryCells(summary: ReportSummary, units: boolean): string[] {
  return [...figureCells(summary, units), units ? `${summary.minutesOutside}分` : String(summary.minutesOutside), coverageText(summary.coverage, units)];
}

/** min, max and mean of some readings. */
export function figureCells(figures: ReportSummaryFigures, units: boolean): string[] {
  const degrees = (value: number | null) => (units ? formatDegrees(value) : value === null ? MISSING_TEXT : formatTemperature(value));
  return [degrees(figures.min), degrees(figures.max), degrees(figures.mean)];
}
