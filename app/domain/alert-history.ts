// The alert history (000 §2 "Alert history", §4, §7, §8, §9): its query and stop inputs, the
// default date range, which rows may be stopped or open the graph, the list's texts and the CSV
// rows. Pure: the clock comes in as `now`. Decisions are in docs/decisions/040-alert-history.md.
import { z } from 'zod';
import { bodyNumber, dbText, INT4_MAX } from './input-schemas';
import { ALL_ALERT_CODES, type AlertCode, alertText, isAlertCode, isTemperatureAlert, type Language, storeAlertText } from './alert-codes';
import type { CsvCell } from './csv';
import { alertValueText, isDamped } from './alert-value';
import { csvTemperature, formatDegrees } from './format';
import { FURNITURE_KINDS } from './furniture-kinds';
import { sensorGraphUrl, storeUrl } from './urls';
import { formatDateTime, fromJapan, japanParts, parseCompact, toCompactDate, toCompactDateTimeMs } from './japan-time';

export const ALERT_HISTORY_PAGE_SIZE = 10;
/** The longest date range one request may cover, so that counts and CSV exports stay bounded. */
export const ALERT_HISTORY_MAX_RANGE_DAYS = 366;
/** CSV exports stop at this many rows (a busy store logs a few thousand alerts a year). */
export const ALERT_HISTORY_CSV_MAX_ROWS = 50_000;
export const STOP_COMMENT_MAX = 200;
export const MAX_EQUIPMENT_IDS = 100;
export const ALERT_HISTORY_CSV_FILENAME = 'alert_history.csv';

export const ALERT_HISTORY_MESSAGES = {
  stopConfirm: '警報を停止してもよろしいですか？',
  stopFailed: '警報停止に失敗しました。',
  csvFailed: '警報履歴一覧CSVをダウンロードできませんでした。再度お試しください。',
  badDate: '日付を正しく入力してください',
  startAfterEnd: '開始日は終了日以前の日付を指定してください',
  rangeTooLong: `期間は${ALERT_HISTORY_MAX_RANGE_DAYS}日以内で指定してください`,
  commentTooLong: `対応コメントは${STOP_COMMENT_MAX}文字以内で入力してください`,
  noRows: '該当する警報履歴はありません',
} as const;

// ---- date range ---------------------------------------------------------------------------

export interface DateRange {
  startDate: string; // YYYYMMDD, Japan time
  endDate: string; // YYYYMMDD, Japan time, inclusive
  from: Date; // Japan midnight starting startDate
  to: Date; // Japan midnight after endDate (exclusive)
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The same day one calendar month before a Japan date, clamped (03/31 → 02/28). */
function oneMonthBefore(year: number, month: number, day: number): { year: number; month: number; day: number } {
  const previous = month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
  return { ...previous, day: Math.min(day, daysInMonth(previous.year, previous.month)) };
}

const compact = (year: number, month: number, day: number) => `${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;

/** 000 §9: the last 1 month up to today, in Japan time. */
export function defaultDateRange(now: Date): { startDate: string; endDate: string } {
  const today = japanParts(now);
  const start = oneMonthBefore(today.year, today.month, today.day);
  return { startDate: compact(start.year, start.month, start.day), endDate: toCompactDate(now) };
}

/** The default start for an end date the user chose: one month before it. */
function defaultStartFor(endDate: string): string {
  const end = japanParts(parseCompact(endDate)!);
  const start = oneMonthBefore(end.year, end.month, end.day);
  return compact(start.year, start.month, start.day);
}

function rangeOf(startDate: string, endDate: string): DateRange {
  const from = parseCompact(startDate)!;
  const end = japanParts(parseCompact(endDate)!);
  return { startDate, endDate, from, to: fromJapan(end.year, end.month, end.day + 1) };
}

/** YYYYMMDD, or YYYY-MM-DD as a date input sends it; empty reads as absent. */
const dateField = z.preprocess(
  (value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : value.trim().replace(/^(\d{4})[-/](\d{2})[-/](\d{2})$/, '$1$2$3')) : value),
  z
    .string()
    .refine((value) => /^\d{8}$/.test(value) && parseCompact(value) !== null, ALERT_HISTORY_MESSAGES.badDate)
    .optional(),
);

// ---- queries ------------------------------------------------------------------------------

const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());

const idList = z
  .string()
  .transform((value) => value.split(',').map((part) => part.trim()))
  .refine((parts) => parts.every((part) => /^[1-9]\d{0,8}$/.test(part)), 'equipment_id is a comma-separated list of sensor ids')
  .refine((parts) => parts.length <= MAX_EQUIPMENT_IDS, `equipment_id lists at most ${MAX_EQUIPMENT_IDS} sensors`)
  .transform((parts) => [...new Set(parts.map(Number))]);

const paging = {
  page_no: z.coerce.number({ invalid_type_error: 'page_no must be a number' }).int('page_no must be a whole number').min(1, 'page_no starts at 1').max(100_000).default(1),
  page_count: z.coerce
    .number({ invalid_type_error: 'page_count must be a number' })
    .int('page_count must be a whole number')
    .min(1, 'page_count is at least 1')
    .max(100, 'page_count is at most 100')
    .default(ALERT_HISTORY_PAGE_SIZE),
};

const dates = { start_date: dateField, end_date: dateField };

/** Fills the defaults (000 §9) and checks start ≤ end and the longest range; problems go on the named field. */
function withRange<T extends { start_date?: string; end_date?: string }>(now: Date) {
  return (input: T, ctx: z.RefinementCtx) => {
    const endDate = input.end_date ?? toCompactDate(now);
    const startDate = input.start_date ?? (input.end_date ? defaultStartFor(input.end_date) : defaultDateRange(now).startDate);
    if (startDate > endDate) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['end_date'], message: ALERT_HISTORY_MESSAGES.startAfterEnd });
      return z.NEVER;
    }
    const range = rangeOf(startDate, endDate);
    if ((range.to.getTime() - range.from.getTime()) / 86_400_000 > ALERT_HISTORY_MAX_RANGE_DAYS) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['end_date'], message: ALERT_HISTORY_MESSAGES.rangeTooLong });
      return z.NEVER;
    }
    return range;
  };
}

/**
 * GET /v1/alert_history and /v1/alert_history/csv: equipment_id (comma list) and/or store_id
 * (our extension: the whole store, gateway alerts included), start_date and end_date
 * (YYYYMMDD, Japan time, both inclusive; default the last month up to today), page_no and
 * page_count (default 10; ignored by the CSV).
 */
export function alertHistoryQuerySchema(now: Date) {
  return z
    .object({
      equipment_id: optional(idList),
      store_id: optional(dbText().trim().min(1).max(20, 'store_id is at most 20 characters')),
      ...dates,
      ...paging,
    })
    .superRefine((input, ctx) => {
      if (!input.store_id && (!input.equipment_id || input.equipment_id.length === 0)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['equipment_id'], message: 'equipment_id or store_id is required' });
      }
    })
    .transform((input, ctx) => {
      const range = withRange(now)(input, ctx);
      return { equipmentIds: input.equipment_id ?? null, storeId: input.store_id ?? null, range, pageNo: input.page_no, pageCount: input.page_count };
    });
}

export type AlertHistoryQuery = z.output<ReturnType<typeof alertHistoryQuerySchema>>;

/**
 * The console page /stores/{store_id}/warning_histories and its CSV link: the category
 * (`kind`, a furniture icon kind, or `equipment_id` for one or more sensors; neither is the
 * whole store), the date range, the page, and `stop` (the history row whose stop dialog is open).
 */
export function alertHistoryPageQuerySchema(now: Date) {
  return z
    .object({
      kind: optional(z.coerce.number({ invalid_type_error: 'kind must be a number' }).int().min(1).max(99)),
      equipment_id: optional(idList),
      ...dates,
      page_no: paging.page_no,
      stop: optional(z.coerce.number().int().positive().max(INT4_MAX)),
    })
    .transform((input, ctx) => {
      const range = withRange(now)(input, ctx);
      return { kind: input.kind ?? null, equipmentIds: input.equipment_id ?? null, range, pageNo: input.page_no, stop: input.stop ?? null };
    });
}

export type AlertHistoryPageQuery = z.output<ReturnType<typeof alertHistoryPageQuerySchema>>;

/** POST /v1/alert_history and the stop dialog: the pair to stop and an optional corrective-action comment. */
export const AlertStopSchema = z.object({
  equipment_id: bodyNumber(z.coerce.number({ invalid_type_error: 'equipment_id must be a number' }).int('equipment_id must be a whole number').positive('equipment_id must be a sensor id').max(INT4_MAX)),
  alert_id: z.string({ required_error: 'alert_id is required' }).refine(isAlertCode, `alert_id is one of ${ALL_ALERT_CODES.join(', ')}`).transform((value) => value as AlertCode),
  comment: dbText()
    .nullish()
    .transform((value) => value?.trim() ?? '')
    .refine((value) => [...value].length <= STOP_COMMENT_MAX, ALERT_HISTORY_MESSAGES.commentTooLong)
    .transform((value) => (value === '' ? null : value)),
});

export type AlertStopInput = z.output<typeof AlertStopSchema>;

// ---- records ------------------------------------------------------------------------------

/** One alert history row as the model hands it over. */
export interface AlertHistoryRecord {
  alertHistoryId: number;
  storeId: string;
  equipmentId: number | null; // null: the store-level gateway alert
  equipmentName: string | null;
  alertId: string;
  alertData1: string | null; // temperature text, or ERROR
  temperature: number | null; // the reading
  simulatedTemperature: number | null; // a temperature alert's damped value, checked against the limits (decision 278)
  lowerLimit: number | null;
  upperLimit: number | null;
  startedAt: Date;
  recoveredAt: Date | null;
  stoppedAt: Date | null;
  stoppedByName: string | null;
  stopComment: string | null;
  /** The acknowledgement with its corrective action (decision 237), null while nobody acknowledged. */
  acknowledgedAt: Date | null;
  acknowledgedByName: string | null;
  correctiveAction: string | null;
  acknowledgeNote: string | null;
  /** No later row exists for the same equipment and alert pair. */
  latestOfPair: boolean;
}

/**
 * 000 §4: the stop button shows only on the latest record of its equipment and alert pair,
 * while it is active (not recovered) and not already stopped. The store-level gateway alert
 * is never re-notified, so it has nothing to stop.
 */
export function isStoppable(record: Pick<AlertHistoryRecord, 'equipmentId' | 'recoveredAt' | 'stoppedAt' | 'latestOfPair'>): boolean {
  return record.equipmentId !== null && record.latestOfPair && record.recoveredAt === null && record.stoppedAt === null;
}

/** 000 §4: only upper and lower limit alerts of a sensor link to the graph. */
export function graphHref(storeId: string, record: Pick<AlertHistoryRecord, 'equipmentId' | 'alertId' | 'startedAt'>): string | null {
  if (record.equipmentId === null || !isAlertCode(record.alertId) || !isTemperatureAlert(record.alertId)) return null;
  return sensorGraphUrl(storeId, record.equipmentId, toCompactDate(record.startedAt));
}

/**
 * The alert's message: a store-level row's own text (storeAlertText); for an active temperature alert
 * the sensor is at status 2, so it reads as a temperature abnormality (000 §4, §8).
 */
export function alertHistoryText(record: Pick<AlertHistoryRecord, 'equipmentId' | 'alertId' | 'recoveredAt'>, language: Language): string {
  if (record.equipmentId === null) return storeAlertText(record.alertId, language);
  if (!isAlertCode(record.alertId)) return record.alertId;
  return alertText(record.alertId, language, record.recoveredAt === null ? 2 : 0);
}

export type AlertState = 'active' | 'stopped' | 'recovered';

export function alertState(record: Pick<AlertHistoryRecord, 'recoveredAt' | 'stoppedAt'>): AlertState {
  if (record.recoveredAt !== null) return 'recovered';
  return record.stoppedAt !== null ? 'stopped' : 'active';
}

/** The acknowledgement's labels wherever it shows (list, CSV, graph, HACCP record, reports). */
export const ACKNOWLEDGEMENT_LABELS = { acknowledged: '確認', at: '確認日時', by: '確認者', action: '改善措置', note: '確認メモ', listTitle: '確認済みの警報と改善措置', reportColumn: '確認・改善措置' } as const;

/**
 * The acknowledgement as one line: 確認 2026/11/21 10:05 山田 太郎: 霜取りを実施（メモ: 商品移動済み）;
 * null while nobody acknowledged.
 */
export function acknowledgementText(record: Pick<AlertHistoryRecord, 'acknowledgedAt' | 'acknowledgedByName' | 'correctiveAction' | 'acknowledgeNote'>): string | null {
  if (!record.acknowledgedAt) return null;
  const who = record.acknowledgedByName ? ` ${record.acknowledgedByName}` : '';
  const note = record.acknowledgeNote ? `（メモ: ${record.acknowledgeNote}）` : '';
  return `${ACKNOWLEDGEMENT_LABELS.acknowledged} ${formatDateTime(record.acknowledgedAt)}${who}: ${record.correctiveAction ?? ''}${note}`;
}

export const ALERT_STATE_LABELS: Record<AlertState, string> = { active: '発生中', stopped: '停止中', recovered: '復旧' };

/** The state column as one line: 発生中 / 停止中（停止 2026/11/21 10:05 山田 太郎） / 復旧 2026/11/21 11:00. */
export function alertStateText(record: Pick<AlertHistoryRecord, 'recoveredAt' | 'stoppedAt' | 'stoppedByName'>): string {
  const parts: string[] = [];
  if (record.recoveredAt !== null) parts.push(`${ALERT_STATE_LABELS.recovered} ${formatDateTime(record.recoveredAt)}`);
  else parts.push(ALERT_STATE_LABELS[record.stoppedAt !== null ? 'stopped' : 'active']);
  if (record.stoppedAt !== null) parts.push(`（停止 ${formatDateTime(record.stoppedAt)}${record.stoppedByName ? ` ${record.stoppedByName}` : ''}）`);
  return parts.join(' ');
}

/** A temperature with its unit, ERROR as is, -- when missing (000 §3). */
export function formatAlertData(value: string | null): string {
  if (value === null || value === '') return '--';
  return /^-?\d+(\.\d+)?$/.test(value) ? `${value}℃` : value;
}

/** The sensor column: the store-level gateway alert has no sensor. */
export const GATEWAY_ROW_NAME = 'ゲートウェイ';

export function sensorName(record: Pick<AlertHistoryRecord, 'equipmentId' | 'equipmentName'>): string {
  if (record.equipmentId === null) return GATEWAY_ROW_NAME;
  return record.equipmentName ?? '--';
}

/** One row of the console's list, ready to show (Japan time, units, texts). */
export interface AlertHistoryRowView {
  id: number;
  equipmentId: number | null;
  alertId: string;
  startedAt: string;
  sensorName: string;
  alertText: string;
  alertData: string;
  isError: boolean; // alert_data1 is ERROR: shown in the error style
  lowerLimit: string;
  upperLimit: string;
  state: AlertState;
  recoveredAt: string | null;
  stoppedAt: string | null;
  stoppedByName: string | null;
  stopComment: string | null;
  acknowledgement: string | null;
  stoppable: boolean;
  graphHref: string | null;
}

export function alertHistoryRowView(record: AlertHistoryRecord, storeId: string, language: Language): AlertHistoryRowView {
  return {
    id: record.alertHistoryId,
    equipmentId: record.equipmentId,
    alertId: record.alertId,
    startedAt: formatDateTime(record.startedAt),
    sensorName: sensorName(record),
    alertText: alertHistoryText(record, language),
    alertData: isDamped(record.temperature, record.simulatedTemperature) ? alertValueText({ measured: record.temperature, simulated: record.simulatedTemperature }, language) : formatAlertData(record.alertData1),
    isError: record.alertData1 === 'ERROR',
    lowerLimit: formatDegrees(record.lowerLimit),
    upperLimit: formatDegrees(record.upperLimit),
    state: alertState(record),
    recoveredAt: record.recoveredAt && formatDateTime(record.recoveredAt),
    stoppedAt: record.stoppedAt && formatDateTime(record.stoppedAt),
    stoppedByName: record.stoppedAt === null ? null : record.stoppedByName,
    stopComment: record.stopComment,
    acknowledgement: acknowledgementText(record),
    stoppable: isStoppable(record),
    graphHref: graphHref(storeId, record),
  };
}

/** The label of the stop action wherever an alert is seen (警報履歴's row, the sensor pop-up, the graph). */
export const STOP_ACTION_LABEL = '警報を停止';

/**
 * Where the pop-up and the graph send a user who stops an alert: 警報履歴 filtered to the sensor,
 * with that row's stop dialog open. One dialog, one action, one audit row for every way in
 * (decision 250).
 */
export function stopAlertHref(storeId: string, alert: { id: number; equipmentId: number }): string {
  return storeUrl.alertHistory(storeId, { equipment_id: alert.equipmentId, stop: alert.id });
}

/** An alert that may be stopped now, as the pop-up and the graph offer it. */
export interface StoppableAlertView {
  id: number;
  equipmentId: number;
  sensorName: string;
  alertText: string;
  startedAt: string;
  stopHref: string;
}

export function stoppableAlertViews(records: readonly AlertHistoryRecord[], storeId: string, language: Language): StoppableAlertView[] {
  return records.flatMap((record) =>
    record.equipmentId !== null && isStoppable(record)
      ? [
          {
            id: record.alertHistoryId,
            equipmentId: record.equipmentId,
            sensorName: sensorName(record),
            alertText: alertHistoryText(record, language),
            startedAt: formatDateTime(record.startedAt),
            stopHref: stopAlertHref(storeId, { id: record.alertHistoryId, equipmentId: record.equipmentId }),
          },
        ]
      : [],
  );
}

/** An acknowledged alert beside the graph: the alert, and who did what (acknowledgementText). */
export interface AcknowledgedAlertView {
  id: number;
  sensorName: string;
  alertText: string;
  startedAt: string;
  acknowledgement: string;
}

export function acknowledgedAlertViews(records: readonly AlertHistoryRecord[], language: Language): AcknowledgedAlertView[] {
  return records.flatMap((record) => {
    const acknowledgement = acknowledgementText(record);
    return acknowledgement === null ? [] : [{ id: record.alertHistoryId, sensorName: sensorName(record), alertText: alertHistoryText(record, language), startedAt: formatDateTime(record.startedAt), acknowledgement }];
  });
}

/** The wire format of GET /v1/alert_history: the specification's fields first, then ours. */
export interface AlertHistoryApiItem {
  alert_id: string;
  equipment_id: number | null;
  alert_data1: string | null;
  lower_limit: number | null;
  upper_limit: number | null;
  start_date: string; // YYYYMMDDHHmmssSSS
  alert_history_id: number;
  store_id: string;
  equipment_name: string | null;
  recovered_date: string | null; // YYYYMMDDHHmmssSSS
  stopped: 0 | 1;
  stopped_date: string | null; // YYYYMMDDHHmmssSSS
  stopped_by_name: string | null;
  stop_comment: string | null;
  stoppable: 0 | 1;
  simulated_temperature: number | null;
  acknowledged_date: string | null; // YYYYMMDDHHmmssSSS
  acknowledged_by_name: string | null;
  corrective_action: string | null;
  acknowledge_note: string | null;
}

export function toApiItem(record: AlertHistoryRecord): AlertHistoryApiItem {
  return {
    alert_id: record.alertId,
    equipment_id: record.equipmentId,
    alert_data1: record.alertData1,
    lower_limit: record.lowerLimit,
    upper_limit: record.upperLimit,
    start_date: toCompactDateTimeMs(record.startedAt),
    alert_history_id: record.alertHistoryId,
    store_id: record.storeId,
    equipment_name: record.equipmentName,
    recovered_date: record.recoveredAt && toCompactDateTimeMs(record.recoveredAt),
    stopped: record.stoppedAt === null ? 0 : 1,
    stopped_date: record.stoppedAt && toCompactDateTimeMs(record.stoppedAt),
    stopped_by_name: record.stoppedAt === null ? null : record.stoppedByName,
    stop_comment: record.stopComment,
    stoppable: isStoppable(record) ? 1 : 0,
    simulated_temperature: record.simulatedTemperature,
    acknowledged_date: record.acknowledgedAt && toCompactDateTimeMs(record.acknowledgedAt),
    acknowledged_by_name: record.acknowledgedAt === null ? null : record.acknowledgedByName,
    corrective_action: record.correctiveAction,
    acknowledge_note: record.acknowledgeNote,
  };
}

// ---- CSV ----------------------------------------------------------------------------------

export const ALERT_HISTORY_CSV_HEADER = ['発生日時', 'センサ名', '警報内容', '温度', '推定品温', '下限温度', '上限温度', '状態', '復旧日時', '停止日時', '停止者', '対応コメント', ACKNOWLEDGEMENT_LABELS.at, ACKNOWLEDGEMENT_LABELS.by, ACKNOWLEDGEMENT_LABELS.action, ACKNOWLEDGEMENT_LABELS.note] as const;

/** The CSV rows, header first: what the list shows, one column per fact. */
export function alertHistoryCsvRows(records: readonly AlertHistoryRecord[], language: Language): CsvCell[][] {
  return [
    [...ALERT_HISTORY_CSV_HEADER],
    ...records.map((record) => [
      formatDateTime(record.startedAt),
      sensorName(record),
      alertHistoryText(record, language),
      record.alertData1 ?? '',
      csvTemperature(record.simulatedTemperature),
      csvTemperature(record.lowerLimit),
      csvTemperature(record.upperLimit),
      ALERT_STATE_LABELS[alertState(record)],
      record.recoveredAt ? formatDateTime(record.recoveredAt) : '',
      record.stoppedAt ? formatDateTime(record.stoppedAt) : '',
      record.stoppedAt ? record.stoppedByName : '',
      record.stopComment,
      record.acknowledgedAt ? formatDateTime(record.acknowledgedAt) : '',
      record.acknowledgedAt ? record.acknowledgedByName : '',
      record.correctiveAction,
      record.acknowledgeNote,
    ]),
  ];
}

// ---- the category menu --------------------------------------------------------------------

export interface MenuSensor {
  equipmentId: number;
  equipmentName: string;
  iconKind: number;
  locationNo: number | null;
}

export interface SensorCategory {
  kind: number;
  label: string;
  sensors: MenuSensor[];
}

/**
 * The side category menu: the store's sensors grouped by their furniture icon kind (the
 * "category" of 000 §3), kinds in the specification's order, sensors by location number then name.
 */
export function sensorCategories(sensors: readonly MenuSensor[], language: Language = 'JP'): SensorCategory[] {
  const byKind = new Map<number, MenuSensor[]>();
  for (const sensor of sensors) byKind.set(sensor.iconKind, [...(byKind.get(sensor.iconKind) ?? []), sensor]);
  return [...byKind.entries()]
    .sort(([a], [b]) => a - b)
    .map(([kind, members]) => ({
      kind,
      label: kindLabel(kind, language),
      sensors: [...members].sort((a, b) => (a.locationNo ?? 0) - (b.locationNo ?? 0) || a.equipmentName.localeCompare(b.equipmentName, 'ja')),
    }));
}

function kindLabel(kind: number, language: Language): string {
  const found = FURNITURE_KINDS.find((item) => item.id === kind);
  if (!found) return `#${kind}`;
  return language === 'US' ? found.en : found.ja;
}

export type CategorySelection = { type: 'all' } | { type: 'kind'; kind: number } | { type: 'sensors'; equipmentIds: number[] };

/** What the page's query selects, and the equipment filter it means (null: the whole store, gateway alerts included). */
export function resolveCategory(query: Pick<AlertHistoryPageQuery, 'kind' | 'equipmentIds'>, sensors: readonly MenuSensor[]): { selection: CategorySelection; equipmentIds: number[] | null } {
  if (query.equipmentIds && query.equipmentIds.length > 0) return { selection: { type: 'sensors', equipmentIds: query.equipmentIds }, equipmentIds: query.equipmentIds };
  if (query.kind !== null) {
    const kind = query.kind;
    return { selection: { type: 'kind', kind }, equipmentIds: sensors.filter((sensor) => sensor.iconKind === kind).map((sensor) => sensor.equipmentId) };
  }
  return { selection: { type: 'all' }, equipmentIds: null };
}
