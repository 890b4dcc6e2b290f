// The HACCP daily record (issue 14 item 6; DESIGN.md "Reports"; docs/decisions/146): per store and
// Japan day, each sensor passes or fails. It fails when one of its alerts was open that day or a
// reading went outside the limits in force at that time, readings in a defrost range or an
// alert-stop window excepted (the same rules as the alert engine: defrost.ts and
// alert-stop-schedule.ts). A sensor without any reading that day has no record (記録なし), which
// is not a pass. Pure: the model loads the rows, this decides.
import { z } from 'zod';
import { acknowledgementText } from './alert-history';
import { type AlertStopSchedule, isInAlertStop } from './alert-stop-schedule';
import { defrostRangesOf, isInDefrost } from './defrost';
import { formatTemperature } from './format';
import { dbText } from './input-schemas';
import { StoreIdSchema } from './store-schemas';
import { formatDateTime, fromJapan, parseCompact, toCompactDate, toCompactDateTime } from './japan-time';
import type { ReportSettingsPeriod } from './report-document';
import { periodHolding, timedSettings } from './report-rows';

export const HACCP_NOTE_MAX = 200;

export type HaccpResult = 'pass' | 'fail' | 'no_data';

export const HACCP_RESULT_LABELS: Record<HaccpResult, string> = { pass: '適合', fail: '逸脱あり', no_data: '記録なし' };

export const HACCP_TEXTS = {
  title: 'HACCP記録',
  sign: '確認して署名',
  jumpToSign: '署名欄へ移動',
  resign: '再署名',
  signed: '署名済み',
  unsigned: '未署名',
  needsResign: '署名後に新しい逸脱またはアラートがあります。内容を確認して再署名してください。',
  futureDay: '未来の日付には署名できません',
  noSensors: 'この店舗にはセンサーがありません',
  noExcursions: '逸脱はありません',
  noteLabel: '備考',
  noteTooLong: `備考は${HACCP_NOTE_MAX}文字以内で入力してください`,
  dateInvalid: '日付が正しくありません',
  monthlyPdf: '月次PDF',
} as const;

/** A reading as the record reads it: temperature null for a missing value or a sensor error. */
export interface HaccpReading {
  at: Date;
  temperature: number | null;
}

export interface HaccpAlert {
  alertId: string;
  label: string;
  startedAt: Date;
  recoveredAt: Date | null;
  stoppedAt: Date | null;
  stoppedBy: string | null;
  stopComment: string | null;
  /** The acknowledgement with its corrective action (decision 237); null while nobody acknowledged. */
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
  correctiveAction: string | null;
  acknowledgeNote: string | null;
}

export interface HaccpComment {
  at: Date;
  comment: string;
  userName: string | null;
}

export interface HaccpSensorInput {
  equipmentId: number;
  name: string;
  serialNo: string;
  /** The limits in force over the day, oldest first. */
  settings: readonly ReportSettingsPeriod[];
  readings: readonly HaccpReading[];
  alerts: readonly HaccpAlert[];
  comments: readonly HaccpComment[];
}

/** A stretch of consecutive readings outside the limits in force (defrost and alert-stop excluded). */
export interface HaccpExcursion {
  from: Date;
  /** The last reading outside. */
  to: Date;
  kind: 'high' | 'low';
  /** The furthest value from the limit. */
  peak: number;
  limit: number;
  readings: number;
  /** Measurement comments and alert-stop comments made on this excursion (改善措置). */
  actions: HaccpComment[];
}

export interface HaccpSensorDay {
  equipmentId: number;
  name: string;
  serialNo: string;
  result: HaccpResult;
  /** The limits in force at the end of the day (or the last period that covered it). */
  lowerLimit: number | null;
  upperLimit: number | null;
  min: number | null;
  max: number | null;
  readings: number;
  excursions: HaccpExcursion[];
  alerts: HaccpAlert[];
  comments: HaccpComment[];
}

/** The Japan day [from, to) of a YYYYMMDD. */
export function dayWindow(day: string): { from: Date; to: Date } {
  const from = parseCompact(day);
  if (!from) throw new Error(`not a day: ${day}`);
  const [y, m, d] = [Number(day.slice(0, 4)), Number(day.slice(4, 6)), Number(day.slice(6, 8))];
  return { from, to: fromJapan(y, m, d + 1) };
}

/** Where a reading stands against the limits in force: inside, excused (defrost, alert stop), high or low. */
export function readingStanding(
  reading: HaccpReading,
  settings: ReportSettingsPeriod | null,
  schedules: readonly AlertStopSchedule[],
  equipmentId: number,
): 'inside' | 'excused' | 'high' | 'low' {
  if (reading.temperature === null || settings === null) return 'inside';
  const high = settings.upperLimit !== null && reading.temperature > settings.upperLimit;
  const low = settings.lowerLimit !== null && reading.temperature < settings.lowerLimit;
  if (!high && !low) return 'inside';
  if (isInDefrost(defrostRangesOf(settings.defrost), reading.at)) return 'excused';
  if (isInAlertStop(schedules, equipmentId, reading.at)) return 'excused';
  return high ? 'high' : 'low';
}

/** Whether an alert was open during [from, to). */
function alertOverlaps(alert: HaccpAlert, from: Date, to: Date): boolean {
  return alert.startedAt < to && (alert.recoveredAt === null || alert.recoveredAt >= from);
}

/** One sensor's day: its excursions, alerts, comments and result. */
export function evaluateSensorDay(sensor: HaccpSensorInput, day: string, schedules: readonly AlertStopSchedule[]): HaccpSensorDay {
  const { from, to } = dayWindow(day);
  const excursions: HaccpExcursion[] = [];
  let current: HaccpExcursion | null = null;
  let min: number | null = null;
  let max: number | null = null;
  let count = 0;
  const periods = timedSettings(sensor.settings);
  for (const reading of sensor.readings) {
    if (reading.at < from || reading.at >= to) continue;
    count++;
    if (reading.temperature !== null) {
      min = min === null ? reading.temperature : Math.min(min, reading.temperature);
      max = max === null ? reading.temperature : Math.max(max, reading.temperature);
    }
    // None before the sensor's first settings: a reading with no limits in force is inside.
    const settings = periodHolding(periods, reading.at.getTime())?.settings ?? null;
    const standing = readingStanding(reading, settings, schedules, sensor.equipmentId);
    if (standing === 'high' || standing === 'low') {
      const value = reading.temperature as number;
      const limit = (standing === 'high' ? settings!.upperLimit : settings!.lowerLimit) as number;
      if (current && current.kind === standing) {
        current.to = reading.at;
        current.readings++;
        current.peak = standing === 'high' ? Math.max(current.peak, value) : Math.min(current.peak, value);
      } else {
        current = { from: reading.at, to: reading.at, kind: standing, peak: value, limit, readings: 1, actions: [] };
        excursions.push(current);
      }
    } else if (standing === 'inside' && reading.temperature !== null) {
      // An excused or missing reading does not end an excursion; a reading back inside does.
      current = null;
    }
  }
  const alerts = sensor.alerts.filter((a) => alertOverlaps(a, from, to));
  const comments = sensor.comments.filter((c) => c.at >= from && c.at < to);
  // Corrective actions: comments on readings of the excursion (up to an hour after its last
  // reading) and the stop comments of alerts that overlap it.
  for (const e of excursions) {
    const until = new Date(e.to.getTime() + 60 * 60_000);
    for (const c of comments) if (c.at >= e.from && c.at <= until) e.actions.push(c);
    for (const a of alerts) {
      if (a.stopComment && a.stoppedAt && alertOverlaps(a, e.from, until)) e.actions.push({ at: a.stoppedAt, comment: a.stopComment, userName: a.stoppedBy });
      if (a.correctiveAction && a.acknowledgedAt && alertOverlaps(a, e.from, until)) e.actions.push({ at: a.acknowledgedAt, comment: a.acknowledgeNote ? `${a.correctiveAction}（${a.acknowledgeNote}）` : a.correctiveAction, userName: a.acknowledgedBy });
    }
    e.actions.sort((a, b) => a.at.getTime() - b.at.getTime());
  }
  const last = periodHolding(periods, to.getTime() - 1)?.settings ?? sensor.settings.at(-1) ?? null;
  const result: HaccpResult = alerts.length > 0 || excursions.length > 0 ? 'fail' : count === 0 ? 'no_data' : 'pass';
  return {
    equipmentId: sensor.equipmentId,
    name: sensor.name,
    serialNo: sensor.serialNo,
    result,
    lowerLimit: last?.lowerLimit ?? null,
    upperLimit: last?.upperLimit ?? null,
    min,
    max,
    readings: count,
    excursions,
    alerts,
    comments,
  };
}

/** What a signer saw: the number of alerts and excursions of the day; more later asks for a new sign-off. */
export function issueCount(sensors: readonly HaccpSensorDay[]): number {
  return sensors.reduce((sum, s) => sum + s.alerts.length + s.excursions.length, 0);
}

export interface HaccpSignoff {
  userName: string;
  signedAt: Date;
  note: string | null;
  issueCount: number;
}

/** Whether the day needs a (new) sign-off: never signed, or more issues now than at the last sign-off. */
export function needsSignoff(signoffs: readonly HaccpSignoff[], issues: number): boolean {
  const latest = signoffs[signoffs.length - 1];
  return !latest || issues > latest.issueCount;
}

// ---- input ----

const day = (field: string) =>
  z
    .string({ required_error: `${field} is required`, invalid_type_error: `${field} is YYYYMMDD` })
    .regex(/^\d{8}$/, `${field} is YYYYMMDD`)
    .refine((value) => parseCompact(value) !== null, `${field} is not a date`);

/** GET /v1/haccp_record: store_id and date (YYYYMMDD, Japan time). */
export const HaccpRecordQuerySchema = z.object({ store_id: StoreIdSchema.shape.store_id, date: day('date') });

/** POST /v1/haccp_record and the page's sign form: the day and an optional note (a future day is refused by isFutureDay). */
export const HaccpSignSchema = z.object({
  store_id: StoreIdSchema.shape.store_id,
  date: day('date'),
  note: dbText()
    .trim()
    .max(HACCP_NOTE_MAX, HACCP_TEXTS.noteTooLong)
    .optional()
    .transform((value) => (value ? value : null)),
});

/** A day after today (Japan time) cannot be signed: nothing has been recorded yet. */
export function isFutureDay(value: string, now: Date): boolean {
  return value > toCompactDate(now);
}

/** The monthly PDF's month (YYYYMM). */
export const HaccpMonthSchema = z.object({
  month: z
    .string()
    .regex(/^\d{6}$/, 'month is YYYYMM')
    .refine((value) => parseCompact(`${value}01`) !== null, 'month is not a month'),
});

/** The days (YYYYMMDD) of a month YYYYMM. */
export function daysOfMonth(month: string): string[] {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(4, 6));
  const days: string[] = [];
  for (let d = 1; d <= 31; d++) {
    const at = fromJapan(y, m, d);
    const compact = toCompactDate(at);
    if (compact.slice(0, 6) !== month) break;
    days.push(compact);
  }
  return days;
}

/** The day before / after a YYYYMMDD. */
export function shiftDay(value: string, days: number): string {
  const [y, m, d] = [Number(value.slice(0, 4)), Number(value.slice(4, 6)), Number(value.slice(6, 8))];
  return toCompactDate(fromJapan(y, m, d + days));
}

// ---- the API's answer ----

const comment = (c: HaccpComment) => ({ date: toCompactDateTime(c.at), comment: c.comment, user_name: c.userName });

export function signoffAnswer(s: HaccpSignoff) {
  return { user_name: s.userName, signed_date: toCompactDateTime(s.signedAt), note: s.note, issue_count: s.issueCount };
}

/** GET /v1/haccp_record's answer for a store day. */
export function haccpRecordAnswer(record: {
  store: { storeId: string; storeName: string };
  day: string;
  sensors: readonly HaccpSensorDay[];
  issues: number;
  signoffs: readonly HaccpSignoff[];
  needsSignoff: boolean;
}) {
  return {
    store_id: record.store.storeId,
    store_name: record.store.storeName,
    date: record.day,
    issue_count: record.issues,
    needs_signoff: record.needsSignoff ? (1 as const) : (0 as const),
    signoffs: record.signoffs.map(signoffAnswer),
    sensors: record.sensors.map((s) => ({
      equipment_id: s.equipmentId,
      equipment_name: s.name,
      serial_no: s.serialNo,
      result: s.result,
      lower_limit: s.lowerLimit,
      upper_limit: s.upperLimit,
      min: s.min,
      max: s.max,
      readings: s.readings,
      excursions: s.excursions.map((e) => ({
        start_date: toCompactDateTime(e.from),
        end_date: toCompactDateTime(e.to),
        kind: e.kind,
        peak: e.peak,
        limit: e.limit,
        actions: e.actions.map(comment),
      })),
      alerts: s.alerts.map((a) => ({
        alert_id: a.alertId,
        label: a.label,
        start_date: toCompactDateTime(a.startedAt),
        recovered_date: a.recoveredAt ? toCompactDateTime(a.recoveredAt) : null,
        stopped_date: a.stoppedAt ? toCompactDateTime(a.stoppedAt) : null,
        stopped_by_name: a.stoppedBy,
        stop_comment: a.stopComment,
        acknowledged_date: a.acknowledgedAt ? toCompactDateTime(a.acknowledgedAt) : null,
        acknowledged_by_name: a.acknowledgedBy,
        corrective_action: a.correctiveAction,
        acknowledge_note: a.acknowledgeNote,
      })),
      comments: s.comments.map(comment),
    })),
  };
}

// ---- the page's view (strings as shown; the component formats nothing) ----

const hm = (at: Date) => formatDateTime(at).slice(11);
const degrees = (value: number | null) => (value === null ? '--' : `${formatTemperature(value)}℃`);

export const EXCURSION_KIND_LABELS = { high: '上限超過', low: '下限未満' } as const;

export interface HaccpSensorView {
  equipmentId: number;
  name: string;
  serialNo: string;
  result: HaccpResult;
  resultLabel: string;
  limits: string;
  range: string;
  excursions: { time: string; kind: string; peak: string; actions: { time: string; comment: string; userName: string }[] }[];
  alerts: { label: string; time: string; stop: string; comment: string | null; acknowledgement: string | null }[];
  comments: { time: string; comment: string; userName: string }[];
}

export interface HaccpDayView {
  day: string;
  dayLabel: string;
  previous: string;
  next: string | null;
  today: string;
  canSign: boolean;
  needsSignoff: boolean;
  counts: Record<HaccpResult, number>;
  sensors: HaccpSensorView[];
  signoffs: { userName: string; signedAt: string; note: string | null }[];
}

/** A sensor day as the page and the PDF print it. */
export function haccpSensorView(s: HaccpSensorDay): HaccpSensorView {
  return {
    equipmentId: s.equipmentId,
    name: s.name,
    serialNo: s.serialNo,
    result: s.result,
    resultLabel: HACCP_RESULT_LABELS[s.result],
    limits: `${degrees(s.lowerLimit)} 〜 ${degrees(s.upperLimit)}`,
    range: s.min === null || s.max === null ? '--' : `${degrees(s.min)} 〜 ${degrees(s.max)}`,
    excursions: s.excursions.map((e) => ({
      time: e.from.getTime() === e.to.getTime() ? hm(e.from) : `${hm(e.from)}〜${hm(e.to)}`,
      kind: EXCURSION_KIND_LABELS[e.kind],
      peak: degrees(e.peak),
      actions: e.actions.map((a) => ({ time: hm(a.at), comment: a.comment, userName: a.userName ?? '--' })),
    })),
    alerts: s.alerts.map((a) => ({
      label: a.label,
      time: a.recoveredAt ? `${formatDateTime(a.startedAt)}〜${hm(a.recoveredAt)}` : `${formatDateTime(a.startedAt)}〜`,
      stop: a.stoppedAt ? `${formatDateTime(a.stoppedAt)} ${a.stoppedBy ?? '--'}` : '--',
      comment: a.stopComment,
      acknowledgement: acknowledgementText({ acknowledgedAt: a.acknowledgedAt, acknowledgedByName: a.acknowledgedBy, correctiveAction: a.correctiveAction, acknowledgeNote: a.acknowledgeNote }),
    })),
    comments: s.comments.map((c) => ({ time: hm(c.at), comment: c.comment, userName: c.userName ?? '--' })),
  };
}

export function haccpDayView(record: { day: string; sensors: readonly HaccpSensorDay[]; signoffs: readonly HaccpSignoff[]; needsSignoff: boolean }, now: Date): HaccpDayView {
  const today = toCompactDate(now);
  const counts: Record<HaccpResult, number> = { pass: 0, fail: 0, no_data: 0 };
  for (const s of record.sensors) counts[s.result]++;
  const next = shiftDay(record.day, 1);
  return {
    day: record.day,
    dayLabel: `${record.day.slice(0, 4)}/${record.day.slice(4, 6)}/${record.day.slice(6, 8)}`,
    previous: shiftDay(record.day, -1),
    next: next <= today ? next : null,
    today,
    canSign: !isFutureDay(record.day, now),
    needsSignoff: record.needsSignoff,
    counts,
    sensors: record.sensors.map(haccpSensorView),
    signoffs: record.signoffs.map((s) => ({ userName: s.userName, signedAt: formatDateTime(s.signedAt), note: s.note })),
  };
}
