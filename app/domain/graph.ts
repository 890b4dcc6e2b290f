// The temperature graphs (000 §2 "Temperature graphs", §5, §9): units and their buckets, the
// periods in Japan time, the rounding of readings onto the x-axis, the y-axis range, the fixed
// palette, the shaded ranges (defrost, alert stop), the page's URL state and the CSV rows. Pure:
// no I/O, no clock; no zod, so the page's browser chunk stays small (the inputs' schemas are in
// graph-schemas.ts). Decisions: docs/decisions/030-graphs.md.
import { type AlertStopSchedule, isInAlertStop } from './alert-stop-schedule';
import { type CsvCell, csvDownloadHeaders } from './csv';
import { csvTemperature, formatDegrees } from './format';
import { type DayRange, fromJapan, japanParts, parseCompact, toCompactDate } from './japan-time';

// ---- constants (000 §9) ----------------------------------------------------------------------

export const GRAPH_MAX_PANELS = 2;
/** The loading overlay stays this long after the data arrived. */
export const LOADING_OVERLAY_MS = 500;
/** The y-axis reaches 10 °C beyond the lowest and highest value shown. */
export const Y_AXIS_PADDING = 10;
/** With one sensor shown, the zones outside its limits are shaded within this band. */
export const THRESHOLD_BAND = { min: -30, max: 60 } as const;
/** Emphasised grid lines. */
export const GAUGE_MARKS = [0, 30] as const;
export const COMMENT_MAX = 200;
/** A comment's start_date names the reading nearest to it within this many minutes (the day graph's rounding). */
export const COMMENT_SNAP_MINUTES = 5;
export const MEASUREMENT_CSV_FILENAME = 'equipments_measurement.csv';
/** One CSV covers at most a month of readings (the month graph's period). */
export const MEASUREMENT_CSV_MAX_DAYS = 31;
/** At most this many sensors in one CSV. */
export const MEASUREMENT_CSV_MAX_SENSORS = 50;

export const GRAPH_TEXTS = {
  title: '温度グラフ',
  addPanel: 'グラフを追加',
  panelLimit: `グラフは${GRAPH_MAX_PANELS}つまで表示できます`,
  removePanel: 'グラフを削除',
  kinds: '種別',
  sensors: 'センサ',
  noSensor: 'センサが登録されていません',
  noSelection: 'センサを選択してください',
  noData: 'この期間の計測データはありません',
  csv: 'CSVダウンロード',
  loading: '読み込み中',
  defrost: '霜取り',
  alertStop: '警報停止',
  limits: '上限・下限',
  commentTitle: 'コメント登録',
  commentSave: '保存',
  commentCancel: 'キャンセル',
  commentSaved: 'コメントを保存しました',
  commentFailed: 'コメントの保存に失敗しました',
  commentTooLong: `コメントは${COMMENT_MAX}文字以内で入力してください`,
  commentHint: 'コメント入力可能なセンサの点をクリック（タップ）するとコメントを登録できます',
  /** Before the names of the sensors that take comments (comment_required), shown before anyone tries (issue 33 item 4). */
  commentableSensors: 'コメントできるセンサ',
  noCommentableSensor: 'この店舗にはコメントできるセンサがありません',
  showCommentableOnly: 'これらだけ表示',
  /** A sensor menu row's link that shows that sensor alone. */
  onlyThis: 'のみ',
  onlyThisLabel: (name: string) => `${name} のみ表示`,
  show: '表示',
  needsScript: 'グラフの表示にはJavaScriptを有効にしてください',
  chartName: (period: string) => `温度グラフ ${period}`,
  /** The limits in the chart's summary (the legend's 上限・下限 names the drawn lines). */
  limitsSpoken: '警報の上下限',
} as const;

/**
 * The fixed palette of 20 line colours (000 §9). A sensor's colour is given by its place in the
 * store's sensor order, so it keeps its colour whatever else is checked and in either panel.
 */
export const GRAPH_PALETTE = [
  '#2563eb', '#dc2626', '#16a34a', '#ea580c', '#9333ea', '#0891b2', '#db2777', '#65a30d', '#ca8a04', '#4f46e5',
  '#0d9488', '#e11d48', '#7c3aed', '#059669', '#d97706', '#0284c7', '#c026d3', '#57534e', '#1e3a8a', '#7f1d1d',
] as const;

/** The colour of the sensor at `index` in the store's sensor order (the palette repeats after 20). */
export function sensorColour(index: number): string {
  return GRAPH_PALETTE[((index % GRAPH_PALETTE.length) + GRAPH_PALETTE.length) % GRAPH_PALETTE.length];
}

// ---- units and periods -----------------------------------------------------------------------

export const GRAPH_UNITS = ['day', 'week', 'month'] as const;
export type GraphUnit = (typeof GRAPH_UNITS)[number];
export const GRAPH_UNIT_LABELS: Record<GraphUnit, string> = { day: '日', week: '週', month: '月' };
/** Bucket of each unit: 10 minutes a day (144 points), 30 minutes a week (336), an hour a month (≤ 744). */
export const BUCKET_MINUTES: Record<GraphUnit, number> = { day: 10, week: 30, month: 60 };
export const PREVIOUS_LABELS: Record<GraphUnit, string> = { day: '前日', week: '前週', month: '前月' };
export const NEXT_LABELS: Record<GraphUnit, string> = { day: '翌日', week: '翌週', month: '翌月' };

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export interface GraphPeriod {
  unit: GraphUnit;
  /** YYYYMMDD (Japan) of the period's first day. */
  startDate: string;
  /** Japan midnight starting the period: slot 0. */
  since: Date;
  /** Japan midnight after the period (exclusive). */
  until: Date;
  stepMinutes: number;
  /** Slots on the x-axis: 0 … slotCount − 1 (a day: 00:00 … 23:50). */
  slotCount: number;
}

function dayStart(date: string): Date {
  return fromJapan(Number(date.slice(0, 4)), Number(date.slice(4, 6)), Number(date.slice(6, 8)));
}

/**
 * The period of a unit that contains the Japan day `date` (YYYYMMDD, valid): that day; its
 * Sunday-to-Saturday week (the weeks of the alert-stop calendar); its calendar month.
 */
export function graphPeriod(unit: GraphUnit, date: string): GraphPeriod {
  const day = dayStart(date);
  const p = japanParts(day);
  let since: Date;
  let until: Date;
  if (unit === 'day') {
    since = day;
    until = new Date(day.getTime() + DAY_MS);
  } else if (unit === 'week') {
    since = new Date(day.getTime() - p.weekday * DAY_MS);
    until = new Date(since.getTime() + 7 * DAY_MS);
  } else {
    since = fromJapan(p.year, p.month, 1);
    until = fromJapan(p.year, p.month + 1, 1);
  }
  const stepMinutes = BUCKET_MINUTES[unit];
  return { unit, startDate: toCompactDate(since), since, until, stepMinutes, slotCount: Math.round((until.getTime() - since.getTime()) / (stepMinutes * MINUTE_MS)) };
}

/** The first day of the previous (-1) or next (+1) period. */
export function shiftPeriod(period: GraphPeriod, direction: -1 | 1): string {
  if (period.unit === 'month') {
    const p = japanParts(period.since);
    return toCompactDate(fromJapan(p.year, p.month + direction, 1));
  }
  const days = period.unit === 'week' ? 7 : 1;
  return toCompactDate(new Date(period.since.getTime() + direction * days * DAY_MS));
}

/** Readings are first rounded to the nearest 10 minutes (000 §9): the buckets the database keeps. */
export const BASE_BUCKET_MINUTES = 10;

/** The 10-minute bucket of a reading: its time rounded to the nearest 10 minutes (half-way rounds up). */
export function tenMinuteBucket(at: Date): Date {
  const step = BASE_BUCKET_MINUTES * MINUTE_MS;
  return new Date(Math.floor((at.getTime() + step / 2) / step) * step);
}

/**
 * The 10-minute buckets that a period's slots gather (start inclusive, end exclusive): a slot
 * takes the buckets rounded onto it, so a bucket half a step before the period start belongs
 * to slot 0 and the last half step to the next period.
 */
export function bucketWindow(period: GraphPeriod): { from: Date; to: Date } {
  const half = (period.stepMinutes * MINUTE_MS) / 2;
  return { from: new Date(period.since.getTime() - half), to: new Date(period.until.getTime() - half) };
}

/**
 * The slot of a 10-minute bucket: rounded to the nearest step from the period start (half-way
 * rounds up). A day's slot is the bucket itself; a week's gathers 3 buckets (readings ±15 min);
 * a month's 6 (readings from 35 minutes before the hour to 25 after).
 */
export function slotOf(period: Pick<GraphPeriod, 'since' | 'stepMinutes'>, bucket: Date): number {
  return Math.floor((bucket.getTime() - period.since.getTime()) / (period.stepMinutes * MINUTE_MS) + 0.5);
}

/** The slot of a reading (its 10-minute bucket, then the period's step). */
export function slotOfReading(period: Pick<GraphPeriod, 'since' | 'stepMinutes'>, at: Date): number {
  return slotOf(period, tenMinuteBucket(at));
}

/** The instant of a slot. */
export function slotTime(period: Pick<GraphPeriod, 'since' | 'stepMinutes'>, slot: number): Date {
  return new Date(period.since.getTime() + slot * period.stepMinutes * MINUTE_MS);
}

const pad = (n: number) => String(n).padStart(2, '0');
const WEEKDAYS_JA = ['日', '月', '火', '水', '木', '金', '土'];

/** A slot's time as the tooltip shows it: HH:mm for a day, MM/DD HH:mm otherwise (Japan time). */
export function slotLabel(period: Pick<GraphPeriod, 'unit' | 'since' | 'stepMinutes'>, slot: number): string {
  const p = japanParts(slotTime(period, slot));
  const time = `${pad(p.hour)}:${pad(p.minute)}`;
  return period.unit === 'day' ? time : `${pad(p.month)}/${pad(p.day)} ${time}`;
}

/** The x-axis tick at a slot: every hour on a day, each day on a week, every other day on a month ('' a grid line without label), otherwise none. */
export function tickLabel(period: Pick<GraphPeriod, 'unit' | 'since' | 'stepMinutes'>, slot: number): string | null {
  const p = japanParts(slotTime(period, slot));
  if (period.unit === 'day') return p.minute === 0 ? `${pad(p.hour)}:00` : null;
  if (p.hour !== 0 || p.minute !== 0) return null;
  if (period.unit === 'week') return `${p.month}/${p.day}(${WEEKDAYS_JA[p.weekday]})`;
  // A month labels every other day (a grid line each day): 30 dates side by side do not fit.
  return p.day % 2 === 1 ? `${p.month}/${p.day}` : '';
}

/** The slots between two ticks. */
export function tickStep(period: Pick<GraphPeriod, 'unit' | 'stepMinutes'>): number {
  return period.unit === 'day' ? 60 / period.stepMinutes : (24 * 60) / period.stepMinutes;
}

/** The room one tick takes on the x axis, in px: its label ("12:00", "11/24(火)"; a month labels every other day). */
const TICK_ROOM_PX: Record<GraphPeriod['unit'], number> = { day: 44, week: 72, month: 20 };
/** How ticks are thinned on a narrow axis: every Nth of them, N dividing the day or the week well. */
const TICK_THINNING = [1, 2, 3, 4, 6, 8, 12, 24];

/**
 * The slots that carry a tick on an x axis `width` px wide: every tick step (the whole hours of a
 * day, the midnights of a week or a month), thinned on a phone so that the labels never touch.
 */
export function axisTicks(period: Pick<GraphPeriod, 'unit' | 'stepMinutes'>, slotCount: number, width: number): number[] {
  const step = tickStep(period);
  const count = Math.floor((slotCount - 1) / step) + 1;
  const room = Math.max(2, Math.floor(width / TICK_ROOM_PX[period.unit]));
  const every = TICK_THINNING.find((n) => Math.ceil(count / n) <= room) ?? TICK_THINNING[TICK_THINNING.length - 1];
  return Array.from({ length: Math.ceil(count / every) }, (_, i) => i * every * step);
}

/** The period as the date navigation shows it. */
export function periodLabel(period: GraphPeriod): string {
  const first = japanParts(period.since);
  const date = (p: { year: number; month: number; day: number }) => `${p.year}/${pad(p.month)}/${pad(p.day)}`;
  if (period.unit === 'day') return date(first);
  if (period.unit === 'month') return `${first.year}/${pad(first.month)}`;
  return `${date(first)} 〜 ${date(japanParts(new Date(period.until.getTime() - DAY_MS)))}`;
}

// ---- y-axis, bands and marks -----------------------------------------------------------------

/**
 * The y-axis range: 10 °C below the lowest and above the highest value shown (readings, and
 * the limits when they are drawn), on whole degrees. With nothing to show, the gauge marks
 * 0 and 30 with the same padding.
 */
export function axisRange(values: Iterable<number>): { min: number; max: number } {
  let low = Infinity;
  let high = -Infinity;
  for (const value of values) {
    if (!Number.isFinite(value)) continue;
    if (value < low) low = value;
    if (value > high) high = value;
  }
  if (low === Infinity) {
    low = GAUGE_MARKS[0];
    high = GAUGE_MARKS[1];
  }
  return { min: Math.floor(low) - Y_AXIS_PADDING, max: Math.ceil(high) + Y_AXIS_PADDING };
}

export interface ValueBand {
  from: number;
  to: number;
  /** Minutes from the period start when the band holds for part of it only (settings over time); the whole period otherwise. */
  start?: number;
  end?: number;
}

/**
 * With exactly one sensor shown (000 §9), the zones outside its limits, within the threshold
 * band −30 … 60: below the lower limit and above the upper one. None for several sensors or
 * for a sensor without limits.
 */
export function thresholdBands(shown: readonly { lowerLimit: number | null; upperLimit: number | null }[]): ValueBand[] {
  if (shown.length !== 1) return [];
  const { lowerLimit, upperLimit } = shown[0];
  const bands: ValueBand[] = [];
  if (lowerLimit !== null && lowerLimit > THRESHOLD_BAND.min) bands.push({ from: THRESHOLD_BAND.min, to: lowerLimit });
  if (upperLimit !== null && upperLimit < THRESHOLD_BAND.max) bands.push({ from: upperLimit, to: THRESHOLD_BAND.max });
  return bands;
}

/** A time range on the x-axis in minutes from the period start: start inclusive, end exclusive. */
export type MinuteRange = [number, number];

/** Defrost ranges are shaded for at most this many sensors shown: beyond, their stripes cover the chart. */
export const DEFROST_SHADE_MAX_SENSORS = 3;

/**
 * Whether the chart shades the shown sensors' defrost ranges: for up to 3 sensors, on a day or a
 * week. Never on a month: a 30-minute defrost is thinner than its hourly slot, and a month of
 * them only stripes the chart.
 */
export function shadesDefrost(unit: GraphUnit, shownSensors: number): boolean {
  return unit !== 'month' && shownSensors <= DEFROST_SHADE_MAX_SENSORS;
}

/** Daily Japan wall-clock ranges (defrost) repeated over each day of the period. */
export function dailyRangesInPeriod(ranges: readonly DayRange[], period: GraphPeriod): MinuteRange[] {
  const days = Math.round((period.until.getTime() - period.since.getTime()) / DAY_MS);
  const out: MinuteRange[] = [];
  for (let day = 0; day < days; day++) {
    for (const range of ranges) out.push([day * 1440 + range.start, day * 1440 + range.end]);
  }
  return out;
}

/**
 * The store's alert-stop windows over the period for the sensors shown: where at least one of
 * them is stopped (store-wide ranges stop every sensor). Each day is cut at the schedules' range
 * boundaries and each piece asked once of isInAlertStop, so the result is exact to the minute.
 */
export function alertStopRangesInPeriod(schedules: readonly AlertStopSchedule[], equipmentIds: readonly number[], period: GraphPeriod): MinuteRange[] {
  if (schedules.length === 0 || equipmentIds.length === 0) return [];
  const cuts = [...new Set([0, 1440, ...schedules.flatMap((s) => s.times.flatMap((t) => [t.start, t.end]))])].filter((m) => m >= 0 && m <= 1440).sort((a, b) => a - b);
  const days = Math.round((period.until.getTime() - period.since.getTime()) / DAY_MS);
  const out: MinuteRange[] = [];
  for (let day = 0; day < days; day++) {
    for (let i = 0; i + 1 < cuts.length; i++) {
      const start = day * 1440 + cuts[i];
      const at = new Date(period.since.getTime() + start * MINUTE_MS);
      if (!equipmentIds.some((id) => isInAlertStop(schedules, id, at))) continue;
      const end = day * 1440 + cuts[i + 1];
      const last = out[out.length - 1];
      if (last && last[1] === start) last[1] = end;
      else out.push([start, end]);
    }
  }
  return out;
}

// ---- series ----------------------------------------------------------------------------------

/** One bucket of a sensor: its slot and the average of the readings rounded onto it (0.1 °C). */
export type SeriesPoint = [slot: number, temperature: number];

/** The slots of a period with their values, null where no reading was rounded onto the slot (the line breaks there). */
export function denseSeries(points: readonly SeriesPoint[], slotCount: number): (number | null)[] {
  const values: (number | null)[] = Array(slotCount).fill(null);
  for (const [slot, value] of points) if (slot >= 0 && slot < slotCount) values[slot] = value;
  return values;
}

// ---- the page's URL state --------------------------------------------------------------------

export interface PanelState {
  unit: GraphUnit;
  /** YYYYMMDD (Japan): a day of the period shown. */
  date: string;
  /** The checked sensors; null when the URL names none (the default: every sensor). */
  equipmentIds: number[] | null;
}

/** URL parameters of a panel: the first panel uses the specification's names, the second the same with p2_. */
const PANEL_PREFIXES = ['', 'p2_'] as const;

/** YYYYMMDD or YYYY-MM-DD (a date input) as YYYYMMDD when it is a real day, else null. */
export function parseGraphDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const digits = value.replaceAll('-', '');
  return /^\d{8}$/.test(digits) && parseCompact(digits) ? digits : null;
}

/** "1,2", repeated parameters (a form without JavaScript) or both; anything not a positive whole number is dropped. */
function parseIds(values: string[]): number[] {
  const ids = values.flatMap((value) => value.split(',')).map((part) => part.trim()).filter((part) => /^\d{1,9}$/.test(part)).map(Number).filter((id) => id > 0);
  return [...new Set(ids)];
}

/**
 * The page's panels from its URL (000 §2: optional equipment_id and start_date). The page is
 * forgiving: a malformed unit or date reads as the default (day, today), unknown ids are dropped
 * later, so a hand-edited link still opens a graph. The second panel exists when p2_unit is given.
 */
export function parsePanels(search: URLSearchParams, today: string): PanelState[] {
  const panels: PanelState[] = [];
  for (const [index, prefix] of PANEL_PREFIXES.entries()) {
    if (index > 0 && !search.has(`${prefix}unit`)) break;
    const unit = search.get(`${prefix}unit`);
    panels.push({
      unit: (GRAPH_UNITS as readonly string[]).includes(unit ?? '') ? (unit as GraphUnit) : 'day',
      date: parseGraphDate(search.get(`${prefix}start_date`)) ?? today,
      equipmentIds: search.has(`${prefix}equipment_id`) ? parseIds(search.getAll(`${prefix}equipment_id`)) : null,
    });
  }
  return panels;
}

/** The URL parameters of a set of panels (at most two). */
export function panelsSearch(panels: readonly PanelState[]): URLSearchParams {
  const search = new URLSearchParams();
  for (const [index, panel] of panels.slice(0, GRAPH_MAX_PANELS).entries()) {
    const prefix = PANEL_PREFIXES[index];
    if (panel.equipmentIds !== null) search.set(`${prefix}equipment_id`, panel.equipmentIds.join(','));
    search.set(`${prefix}unit`, panel.unit);
    search.set(`${prefix}start_date`, panel.date);
  }
  return search;
}

/** The hidden fields that keep the other panels when one panel's form is sent without JavaScript. */
export function otherPanelFields(panels: readonly PanelState[], index: number): [string, string][] {
  const belongs = (name: string) => (index === 0 ? PANEL_PREFIXES.slice(1).every((p) => !name.startsWith(p)) : name.startsWith(PANEL_PREFIXES[index]));
  return [...panelsSearch(panels).entries()].filter(([name]) => !belongs(name));
}

export function panelFieldName(index: number, name: 'equipment_id' | 'unit' | 'start_date'): string {
  return `${PANEL_PREFIXES[index]}${name}`;
}

/** "＋": a second panel showing what the first shows; ignored once there are two (000 §2). */
export function addPanel(panels: readonly PanelState[]): PanelState[] {
  if (panels.length >= GRAPH_MAX_PANELS || panels.length === 0) return [...panels];
  return [...panels, { ...panels[0] }];
}

/** Removes a panel; the first one cannot be removed (000 §2). */
export function removePanel(panels: readonly PanelState[], index: number): PanelState[] {
  if (index === 0) return [...panels];
  return panels.filter((_, i) => i !== index);
}

export function withPanel(panels: readonly PanelState[], index: number, change: Partial<PanelState>): PanelState[] {
  return panels.map((panel, i) => (i === index ? { ...panel, ...change } : panel));
}

// ---- CSV -------------------------------------------------------------------------------------

export const MEASUREMENT_CSV_HEADER = ['センサID', 'センサ名', '計測日時', '温度', '電池残量', '電波強度', 'コメント'] as const;

export interface CsvReading {
  measuredAt: Date;
  temperature: number | null;
  error: boolean;
  battery: number | null;
  receiveSensitivity: number | null;
  comment: string | null;
}

/** YYYY/MM/DD HH:mm:ss in Japan time. */
export function formatCsvDateTime(at: Date): string {
  const p = japanParts(at);
  return `${p.year}/${pad(p.month)}/${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** One CSV row per reading: raw values (no DEF), ERROR for an error reading, empty where nothing was measured. */
export function measurementCsvRow(sensor: { equipmentId: number; equipmentName: string }, reading: CsvReading): CsvCell[] {
  return [
    String(sensor.equipmentId),
    sensor.equipmentName,
    formatCsvDateTime(reading.measuredAt),
    reading.error ? 'ERROR' : csvTemperature(reading.temperature),
    reading.battery === null ? '' : String(reading.battery),
    reading.receiveSensitivity === null ? '' : String(reading.receiveSensitivity),
    reading.comment,
  ];
}

/** The headers of the measurement CSV download. */
export const MEASUREMENT_CSV_RESPONSE_HEADERS = csvDownloadHeaders(MEASUREMENT_CSV_FILENAME);

// ---- the graph page's view shapes (the model builds them, the components draw them) ----

export interface GraphComment {
  slot: number;
  /** The reading's time, YYYYMMDDHHmmss (Japan). */
  startDate: string;
  comment: string;
}

export interface GraphSeries {
  equipmentId: number;
  /** Slots with a value, in order; slots without readings are left out. */
  points: SeriesPoint[];
  comments: GraphComment[];
}

/**
 * A series as the page receives it: its points as one JSON text. The page's data encoding
 * (turbo-stream) walks every value of what it sends; a month of 20 sensors is 14,880 pairs,
 * which cost the web process more than the query that read them (docs/decisions/198).
 */
export interface GraphSeriesView {
  equipmentId: number;
  pointsJson: string;
  comments: GraphComment[];
}

export const seriesView = ({ equipmentId, points, comments }: GraphSeries): GraphSeriesView => ({ equipmentId, pointsJson: JSON.stringify(points), comments });

export const seriesPoints = (series: GraphSeriesView): SeriesPoint[] => JSON.parse(series.pointsJson) as SeriesPoint[];

export const hasPoints = (series: GraphSeriesView): boolean => series.pointsJson !== '[]';

/** What a graph panel draws: its period and navigation, the checked sensors' series and shaded ranges, the axis. */
export interface GraphPanelView {
  unit: GraphUnit;
  /** YYYYMMDD: the day the panel was asked for (the date picker's value). */
  date: string;
  /** YYYYMMDD: the period's first day. */
  startDate: string;
  label: string;
  previousDate: string;
  /** null when the next period has not started yet. */
  nextDate: string | null;
  sinceMs: number;
  stepMinutes: number;
  slotCount: number;
  /** Checked sensors in the store's order. */
  selected: number[];
  series: GraphSeriesView[];
  defrost: { equipmentId: number; ranges: MinuteRange[] }[];
  alertStops: MinuteRange[];
  yRange: { min: number; max: number };
  thresholdBands: ValueBand[];
  /** The limits drawn as lines (one sensor shown). */
  limits: number[];
  /** The limits in force over the period, a step per settings period (one sensor shown); drawn instead of flat lines. */
  limitSteps?: LimitStep[];
  /** The period (or its start) is beyond retention (domain/retention.ts); whole: nothing to draw. */
  retention: { whole: boolean; text: string } | null;
}

// ---- settings over time (DESIGN.md "Settings over time") ---------------------------------------

/** A sensor's limits over part of a period: minutes from the period start, end exclusive. */
export interface LimitStep {
  start: number;
  end: number;
  lower: number | null;
  upper: number | null;
}

/** A settings period as the history gives it (to null: still in force). */
export interface SettingsSpan {
  from: Date;
  to: Date | null;
  lowerLimit: number | null;
  upperLimit: number | null;
  defrost: readonly DayRange[];
}

/** The spans clipped to the period, in minutes from its start, oldest first. */
function clippedSpans(spans: readonly SettingsSpan[], period: Pick<GraphPeriod, 'since' | 'until'>): { start: number; end: number; span: SettingsSpan }[] {
  const length = (period.until.getTime() - period.since.getTime()) / MINUTE_MS;
  return [...spans]
    .sort((a, b) => a.from.getTime() - b.from.getTime())
    .map((span) => ({
      start: Math.max(0, Math.floor((span.from.getTime() - period.since.getTime()) / MINUTE_MS)),
      end: span.to === null ? length : Math.min(length, Math.floor((span.to.getTime() - period.since.getTime()) / MINUTE_MS)),
      span,
    }))
    .filter((clip) => clip.end > clip.start);
}

/** The limits in force at each moment of the period (one sensor's spans). */
export function limitStepsInPeriod(spans: readonly SettingsSpan[], period: Pick<GraphPeriod, 'since' | 'until'>): LimitStep[] {
  return clippedSpans(spans, period).map(({ start, end, span }) => ({ start, end, lower: span.lowerLimit, upper: span.upperLimit }));
}

/** The out-of-limit zones of each step (within the threshold band), each over its step's time. */
export function stepThresholdBands(steps: readonly LimitStep[]): ValueBand[] {
  // One setting over the whole period: plain bands, as before the history.
  if (steps.length === 1) return thresholdBands([{ lowerLimit: steps[0].lower, upperLimit: steps[0].upper }]);
  return steps.flatMap((step) =>
    thresholdBands([{ lowerLimit: step.lower, upperLimit: step.upper }]).map((band) => ({ ...band, start: step.start, end: step.end })),
  );
}

/** A sensor's defrost ranges over the period, each day's from the settings in force that day. */
export function defrostInSpans(spans: readonly SettingsSpan[], period: GraphPeriod): MinuteRange[] {
  return clippedSpans(spans, period).flatMap(({ start, end, span }) =>
    dailyRangesInPeriod(span.defrost, period)
      .map(([from, to]): MinuteRange => [Math.max(from, start), Math.min(to, end)])
      .filter(([from, to]) => to > from),
  );
}

// ---- the chart in words ------------------------------------------------------------------------

/**
 * What the chart shows, for screen readers (the canvas is only a picture): per sensor shown, its
 * lowest, highest and last value in the period, and the limits when they are drawn.
 */
export function chartSummary(sensors: readonly { name: string; values: readonly (number | null)[] }[], limits: readonly number[]): string {
  if (sensors.length === 0) return GRAPH_TEXTS.noSelection;
  const lines = sensors.map((sensor) => {
    const measured = sensor.values.filter((value): value is number => value !== null);
    if (measured.length === 0) return `${sensor.name}: ${GRAPH_TEXTS.noData}`;
    return `${sensor.name}: 最低 ${formatDegrees(Math.min(...measured))}、最高 ${formatDegrees(Math.max(...measured))}、最後 ${formatDegrees(measured[measured.length - 1])}`;
  });
  if (limits.length > 0) lines.push(`${GRAPH_TEXTS.limitsSpoken}: ${limits.map(formatDegrees).join('、')}`);
  return lines.join('。');
}
