// The alert-stop list and editor (001 §2 "Alert-stop list", "Alert-stop edit", §3, §4, §5, §7):
// the wire shapes of GET/POST/DELETE /v1/alert_schedule, the 30-minute time grid with its dialog
// rules, the merging of set cells into ranges, the save rules and the list's texts. Pure: the
// engine's window rules stay in alert-stop-schedule.ts and are reused here.
import { z } from 'zod';
import {
  type AlertStopSchedule,
  type ScheduleType,
  type TermType,
  type TimeTargetType,
  SCHEDULE_TYPE,
  TERM_TYPE,
  TIME_TARGET_TYPE,
  isAlertStopDay,
  normalizeAlertStopSchedule,
} from './alert-stop-schedule';
import { INT4_MAX, bodyNumber, dbText } from './input-schemas';
import { type DayRange, fromJapan, parseCompact, toCompactDate } from './japan-time';

export type { DayRange };

export const ALERT_STOP_MESSAGES = {
  period: '期間の指定が違います',
  noTime: '警報停止時間を設定してください',
  choose: '選択してください',
  banner: '入力に誤りがあります',
  deleteFailed: '削除に失敗しました。',
  notOfStore: 'is not a sensor of this store',
  noSensors: 'the store has no sensors',
} as const;

// ---- the time grid: 48 cells of 30 minutes, 00:00 to 23:30 (001 §4, §9) ----

export const CELL_MINUTES = 30;
export const CELL_COUNT = (24 * 60) / CELL_MINUTES;
export const DAY_END = 24 * 60;

/** A row of the grid: one flag per 30-minute cell. */
export type Cells = readonly boolean[];

export const emptyCells = (): boolean[] => Array<boolean>(CELL_COUNT).fill(false);

/** HH:mm of a minute of the day (1440 is 24:00). */
export function hourMinute(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** The dialog's choices: 00:00 … 23:30 for the start, 00:30 … 23:30 and 00:00 (meaning 24:00) for the end. */
export const START_CHOICES: readonly number[] = Array.from({ length: CELL_COUNT }, (_, index) => index * CELL_MINUTES);
export const END_CHOICES: readonly number[] = Array.from({ length: CELL_COUNT }, (_, index) => (index + 1) * CELL_MINUTES);

/** The end as the picker reads it: 00:00 is the end of the day (24:00). */
export const endOfPicked = (minute: number) => (minute === 0 ? DAY_END : minute);
/** The end as the picker shows it: 24:00 is 00:00. */
export const pickedOfEnd = (minute: number) => (minute === DAY_END ? 0 : minute);

/**
 * The dialog's preset for a clicked cell: on a set cell, the run of contiguous set cells around
 * it; on an unset cell, from the cell to 30 minutes later when it is on the hour, else to the next
 * full hour (001 §4).
 */
export function presetFor(cells: Cells, index: number): DayRange {
  if (cells[index]) {
    let first = index;
    let last = index;
    while (first > 0 && cells[first - 1]) first -= 1;
    while (last < CELL_COUNT - 1 && cells[last + 1]) last += 1;
    return { start: first * CELL_MINUTES, end: (last + 1) * CELL_MINUTES };
  }
  const start = index * CELL_MINUTES;
  return { start, end: start % 60 === 0 ? start + CELL_MINUTES : start + 60 - (start % 60) };
}

/** Applying the dialog: start must be before end (end 00:00 read as 24:00); null when it is not. */
export function checkRange(start: number, pickedEnd: number): DayRange | null {
  const end = endOfPicked(pickedEnd);
  if (start % CELL_MINUTES !== 0 || end % CELL_MINUTES !== 0 || start < 0 || end > DAY_END || start >= end) return null;
  return { start, end };
}

/** Sets cells [start, end). */
export function setRange(cells: Cells, range: DayRange): boolean[] {
  return cells.map((set, index) => set || (index * CELL_MINUTES >= range.start && index * CELL_MINUTES < range.end));
}

/** Clears cells [start, end). */
export function clearRange(cells: Cells, range: DayRange): boolean[] {
  return cells.map((set, index) => set && !(index * CELL_MINUTES >= range.start && index * CELL_MINUTES < range.end));
}

/** Decide in the dialog: the old range (the preset of a set cell) is cleared, then the new one set. */
export function applyDialog(cells: Cells, old: DayRange | null, range: DayRange): boolean[] {
  return setRange(old ? clearRange(cells, old) : cells, range);
}

/** Saving: consecutive set cells become one range; a run reaching the last cell ends at 24:00. */
export function mergeCells(cells: Cells): DayRange[] {
  const ranges: DayRange[] = [];
  let start: number | null = null;
  cells.forEach((set, index) => {
    if (set && start === null) start = index * CELL_MINUTES;
    if (!set && start !== null) {
      ranges.push({ start, end: index * CELL_MINUTES });
      start = null;
    }
  });
  if (start !== null) ranges.push({ start, end: DAY_END });
  return ranges;
}

/** The cells a list of ranges covers. */
export function cellsOf(ranges: readonly DayRange[]): boolean[] {
  return ranges.reduce<boolean[]>((cells, range) => setRange(cells, range), emptyCells());
}

// ---- the wire format (001 §3, §7) ----

const HOUR_MINUTE = /^([01]\d|2[0-4]):(00|30)$/;
const hourMinuteOf = (value: string) => Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5));

/** HH:mm on the 30-minute grid; 24:00 and, for an end, 00:00 are the end of the day. */
export const TimeScheduleSchema = z
  .object({
    start: z.string().regex(HOUR_MINUTE, 'must be HH:mm on the 30-minute grid').refine((value) => hourMinuteOf(value) < DAY_END, 'must be 00:00 … 23:30'),
    end: z.string().regex(HOUR_MINUTE, 'must be HH:mm on the 30-minute grid'),
  })
  .refine((range) => hourMinuteOf(range.start) < endOfPicked(hourMinuteOf(range.end)), { message: 'start must be before end', path: ['end'] });

const flag = bodyNumber(z.coerce.number().int().min(0).max(1)).default(0);
const id = bodyNumber(z.coerce.number().int().min(1).max(INT4_MAX));
const storeId = dbText({ required_error: 'required' }).min(1).max(20);

/** A YYYYMMDD date that exists; every failure is 期間の指定が違います (001 §5). */
const compactDate = z.string({ required_error: ALERT_STOP_MESSAGES.period, invalid_type_error: ALERT_STOP_MESSAGES.period }).refine((value) => /^\d{8}$/.test(value) && parseCompact(value) !== null, ALERT_STOP_MESSAGES.period);

const WEEKDAY_FLAGS = ['sun_flg', 'mon_flg', 'tue_flg', 'wed_flg', 'thu_flg', 'fri_flg', 'sat_flg'] as const;
export type WeekdayFlag = (typeof WEEKDAY_FLAGS)[number];
export { WEEKDAY_FLAGS };

/** POST /v1/alert_schedule and the editor's save: one schedule (schedule_id null or absent creates). */
export const AlertScheduleSaveSchema = z
  .object({
    store_id: storeId,
    schedule_id: z.union([z.null(), z.literal(''), z.literal('null'), id]).optional().transform((value) => (typeof value === 'number' ? value : null)),
    schedule_type: bodyNumber(z.coerce.number({ invalid_type_error: ALERT_STOP_MESSAGES.choose }).int().refine((value) => value === 1 || value === 2, ALERT_STOP_MESSAGES.choose)),
    term_type: bodyNumber(z.coerce.number({ invalid_type_error: ALERT_STOP_MESSAGES.choose }).int().refine((value) => value >= 1 && value <= 3, ALERT_STOP_MESSAGES.choose)),
    start_date: compactDate,
    end_date: z.union([z.null(), z.literal(''), compactDate]).optional().transform((value) => (value ? value : null)),
    sun_flg: flag,
    mon_flg: flag,
    tue_flg: flag,
    wed_flg: flag,
    thu_flg: flag,
    fri_flg: flag,
    sat_flg: flag,
    time_target_type: bodyNumber(z.coerce.number({ invalid_type_error: ALERT_STOP_MESSAGES.choose }).int().refine((value) => value === 1 || value === 2, ALERT_STOP_MESSAGES.choose)),
    times: z
      .array(
        z.object({
          equipment_id: z.union([z.null(), id]).optional().transform((value) => value ?? null),
          equipment_name: dbText().max(100).nullish(),
          time_schedules: z.array(TimeScheduleSchema).max(CELL_COUNT),
        }),
        { required_error: ALERT_STOP_MESSAGES.noTime, invalid_type_error: ALERT_STOP_MESSAGES.noTime },
      )
      .max(1000),
  })
  .superRefine((input, context) => {
    const schedule = toSchedule(input);
    if (!schedule) return;
    // The end is the user's only where it is shown: sequential free period and periodic weekly.
    if (schedule.endDate !== null && showsEndDate(input.schedule_type as ScheduleType, input.term_type as TermType) && !(schedule.startDate < schedule.endDate)) {
      context.addIssue({ code: 'custom', path: ['end_date'], message: ALERT_STOP_MESSAGES.period });
    }
    if (schedule.times.length === 0) context.addIssue({ code: 'custom', path: ['times'], message: ALERT_STOP_MESSAGES.noTime });
    if (isWeeklySchedule(schedule) && !schedule.weekdays.some(Boolean)) context.addIssue({ code: 'custom', path: ['sun_flg'], message: ALERT_STOP_MESSAGES.choose });
  });

export type AlertScheduleSave = z.output<typeof AlertScheduleSaveSchema>;

export const AlertScheduleListQuerySchema = z
  .object({ store_id: storeId, start_date: compactDate, end_date: compactDate })
  .refine((query) => query.start_date <= query.end_date, { message: ALERT_STOP_MESSAGES.period, path: ['end_date'] })
  .refine((query) => !(daysBetween(query.start_date, query.end_date) > MAX_LIST_DAYS), { message: 'at most 366 days', path: ['end_date'] });

export const AlertScheduleDeleteSchema = z.object({ store_id: storeId, schedule_id: id });

const TimeScheduleAnswerSchema = z.object({ start: z.string(), end: z.string() }).strict();
export const AlertScheduleAnswerSchema = z
  .object({
    store_id: z.string(),
    schedule_id: z.number(),
    schedule_type: z.number(),
    term_type: z.number(),
    start_date: z.string(),
    end_date: z.string().nullable(),
    sun_flg: z.number(),
    mon_flg: z.number(),
    tue_flg: z.number(),
    wed_flg: z.number(),
    thu_flg: z.number(),
    fri_flg: z.number(),
    sat_flg: z.number(),
    time_target_type: z.number(),
    times: z.array(z.object({ equipment_id: z.number().nullable(), equipment_name: z.string(), time_schedules: z.array(TimeScheduleAnswerSchema) }).strict()),
  })
  .strict();
export type AlertScheduleAnswer = z.infer<typeof AlertScheduleAnswerSchema>;

export const AlertScheduleListAnswerSchema = z
  .object({
    store_name: z.string(),
    sensors: z.array(z.object({ equipment_id: z.number(), equipment_name: z.string() }).strict()),
    schedules: z.array(AlertScheduleAnswerSchema),
  })
  .strict();
export type AlertScheduleList = z.infer<typeof AlertScheduleListAnswerSchema>;

export const AlertScheduleSaveAnswerSchema = z.object({ store_id: z.string(), schedule_id: z.number() }).strict();
export const AlertScheduleDeleteAnswerSchema = z.object({ store_id: z.string(), schedule_id: z.number() }).strict();

// ---- the save rules (001 §4) ----

export function showsEndDate(scheduleType: ScheduleType, termType: TermType): boolean {
  return scheduleType === SCHEDULE_TYPE.periodic || termType === TERM_TYPE.freePeriod;
}

export function isWeeklySchedule(schedule: Pick<AlertStopSchedule, 'scheduleType' | 'termType'>): boolean {
  return schedule.scheduleType === SCHEDULE_TYPE.periodic || schedule.termType === TERM_TYPE.weekly;
}

/**
 * The schedule a save stores, by the rules of 001 §4: periodic forces weekly, sequential weekly
 * spans the Sunday–Saturday of its start date, daily ends on its start, an empty end is null,
 * weekday flags only for weekly terms; a store target keeps the first non-empty list of ranges
 * (store-wide, equipment null), a sensor target each sensor's merged ranges. Null when the
 * enumerations are out of range (the schema says which).
 */
export function toSchedule(input: Pick<AlertScheduleSave, 'schedule_type' | 'term_type' | 'start_date' | 'end_date' | 'time_target_type' | 'times' | WeekdayFlag>): AlertStopSchedule | null {
  const scheduleType = input.schedule_type as ScheduleType;
  const termType = input.term_type as TermType;
  const target = input.time_target_type as TimeTargetType;
  if (![1, 2].includes(scheduleType) || ![1, 2, 3].includes(termType) || ![1, 2].includes(target)) return null;
  const rangesOf = (list: readonly { start: string; end: string }[]) =>
    mergeCells(cellsOf(list.map((range) => ({ start: hourMinuteOf(range.start), end: endOfPicked(hourMinuteOf(range.end)) }))));
  const times =
    target === TIME_TARGET_TYPE.store
      ? rangesOf(input.times.find((entry) => entry.time_schedules.length > 0)?.time_schedules ?? []).map((range) => ({ ...range, equipmentId: null }))
      : input.times.flatMap((entry) => (entry.equipment_id === null ? [] : rangesOf(entry.time_schedules).map((range) => ({ ...range, equipmentId: entry.equipment_id }))));
  const weekdays = WEEKDAY_FLAGS.map((name) => input[name] === 1);
  const normalized = normalizeAlertStopSchedule({
    scheduleType,
    termType,
    startDate: input.start_date,
    endDate: input.end_date || null,
    weekdays,
    timeTargetType: target,
    times,
  });
  return isWeeklySchedule(normalized) ? normalized : { ...normalized, weekdays: Array<boolean>(7).fill(false) };
}

// ---- the list (001 §2 "Alert-stop list") ----

export const MAX_LIST_DAYS = 366;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days from one YYYYMMDD to another. */
export function daysBetween(from: string, to: string): number {
  const a = parseCompact(from);
  const b = parseCompact(to);
  return a && b ? Math.round((b.getTime() - a.getTime()) / DAY_MS) : Number.NaN;
}

/** The route's dates, when they are real days, in order and at most a year apart; null otherwise (the page is 404). */
export function listRange(startDate: string, endDate: string): { startDate: string; endDate: string } | null {
  const days = daysBetween(startDate, endDate);
  if (!/^\d{8}$/.test(startDate) || !/^\d{8}$/.test(endDate) || Number.isNaN(days) || days < 0 || days > MAX_LIST_DAYS) return null;
  return { startDate, endDate };
}

/**
 * The list's check (001 leaves it unshown; docs/decisions/115): a schedule is listed when it is
 * in force on at least one day of the range, by the engine's own day rule (isAlertStopDay: its
 * period, and for weekly terms its weekdays). A day click lists what stops alerts that day.
 */
export function coversRange(schedule: AlertStopSchedule, startDate: string, endDate: string): boolean {
  const first = parseCompact(startDate);
  const days = daysBetween(startDate, endDate);
  if (!first || Number.isNaN(days)) return false;
  for (let day = 0; day <= days; day += 1) {
    if (isAlertStopDay(schedule, new Date(first.getTime() + day * DAY_MS))) return true;
  }
  return false;
}

const WEEKDAY_LABELS = ['日', '月', '火', '水', '木', '金', '土'] as const;
export { WEEKDAY_LABELS };

export const SCHEDULE_TYPE_LABELS: Record<number, string> = { 1: '単発', 2: '定期' };
export const TERM_TYPE_LABELS: Record<number, string> = { 1: '週', 2: '日', 3: '期間指定' };
export const TARGET_LABELS: Record<number, string> = { 1: '店舗', 2: 'センサ別' };

/** YYYYMMDD as YYYY/MM/DD. */
export const slashDate = (date: string) => `${date.slice(0, 4)}/${date.slice(4, 6)}/${date.slice(6, 8)}`;
/** YYYYMMDD as YYYY-MM-DD (a date input's value), and back. */
export const isoDate = (date: string) => (date ? `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}` : '');
export const compactOfIso = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? value.replaceAll('-', '') : value);

/** A row of the list: what 001 §2 names, as text. */
export interface AlertStopRow {
  no: number;
  scheduleId: number;
  type: string;
  dateText: string;
  /** Store target: one line; sensor target: one line per sensor. */
  timeLines: { label: string | null; ranges: string }[];
  weekdays: string;
}

const rangesText = (ranges: readonly { start: string; end: string }[]) => ranges.map((range) => `${range.start}〜${range.end}`).join(', ');

export function listRows(schedules: readonly AlertScheduleAnswer[]): AlertStopRow[] {
  return schedules.map((schedule, index) => {
    const weekly = schedule.schedule_type === SCHEDULE_TYPE.periodic || schedule.term_type === TERM_TYPE.weekly;
    const date = slashDate(schedule.start_date);
    let dateText = date;
    if (schedule.schedule_type === SCHEDULE_TYPE.sequential && schedule.term_type === TERM_TYPE.weekly) dateText = `${date}〜${slashDate(schedule.end_date ?? schedule.start_date)}（週）`;
    else if (schedule.term_type !== TERM_TYPE.daily || schedule.schedule_type === SCHEDULE_TYPE.periodic) dateText = schedule.end_date ? `${date}〜${slashDate(schedule.end_date)}` : `${date}〜`;
    if (schedule.schedule_type === SCHEDULE_TYPE.periodic) dateText = `${dateText}（毎週）`;
    const timeLines =
      schedule.time_target_type === TIME_TARGET_TYPE.store
        ? [{ label: null, ranges: rangesText(schedule.times[0]?.time_schedules ?? []) }]
        : schedule.times.filter((entry) => entry.time_schedules.length > 0).map((entry) => ({ label: entry.equipment_name, ranges: rangesText(entry.time_schedules) }));
    const weekdays = weekly ? WEEKDAY_FLAGS.filter((name) => schedule[name] === 1).map((name) => WEEKDAY_LABELS[WEEKDAY_FLAGS.indexOf(name)]).join('・') : '';
    return {
      no: index + 1,
      scheduleId: schedule.schedule_id,
      type: SCHEDULE_TYPE_LABELS[schedule.schedule_type] ?? String(schedule.schedule_type),
      dateText,
      timeLines,
      weekdays,
    };
  });
}

// ---- the editor's state ----

export interface EditorState {
  scheduleType: ScheduleType;
  termType: TermType;
  startDate: string; // YYYYMMDD
  endDate: string; // YYYYMMDD or ''
  weekdays: boolean[];
  target: TimeTargetType;
  storeCells: boolean[];
  sensorCells: Record<number, boolean[]>;
}

/** A new schedule: sequential daily on the list's start date, store target, nothing set (dates prefilled, 001 §4). */
export function newEditorState(startDate: string, sensors: readonly { equipment_id: number }[]): EditorState {
  return {
    scheduleType: SCHEDULE_TYPE.sequential,
    termType: TERM_TYPE.daily,
    startDate,
    endDate: startDate,
    weekdays: Array<boolean>(7).fill(false),
    target: TIME_TARGET_TYPE.store,
    storeCells: emptyCells(),
    sensorCells: Object.fromEntries(sensors.map((sensor) => [sensor.equipment_id, emptyCells()])),
  };
}

const parseRanges = (list: readonly { start: string; end: string }[]) => list.map((range) => ({ start: hourMinuteOf(range.start), end: endOfPicked(hourMinuteOf(range.end)) }));

/** A saved schedule in the editor; a store target whose first list is empty takes the first non-empty one (001 §4). */
export function editorStateOf(schedule: AlertScheduleAnswer, sensors: readonly { equipment_id: number }[]): EditorState {
  const firstNonEmpty = schedule.times.find((entry) => entry.time_schedules.length > 0)?.time_schedules ?? [];
  const first = schedule.times[0]?.time_schedules ?? [];
  return {
    scheduleType: schedule.schedule_type as ScheduleType,
    termType: schedule.term_type as TermType,
    startDate: schedule.start_date,
    endDate: schedule.end_date ?? '',
    weekdays: WEEKDAY_FLAGS.map((name) => schedule[name] === 1),
    target: schedule.time_target_type as TimeTargetType,
    storeCells: cellsOf(parseRanges(first.length > 0 ? first : firstNonEmpty)),
    sensorCells: Object.fromEntries(
      sensors.map((sensor) => [sensor.equipment_id, cellsOf(parseRanges(schedule.times.find((entry) => entry.equipment_id === sensor.equipment_id)?.time_schedules ?? []))]),
    ),
  };
}

const rangesOfCells = (cells: Cells) => mergeCells(cells).map((range) => ({ start: hourMinute(range.start), end: hourMinute(range.end) }));

/** A grid row's set ranges as the list shows them (HH:mm〜HH:mm, …); '' when none is set. */
export const cellsRangesText = (cells: Cells) => rangesText(rangesOfCells(cells));

/** The POST body of the editor's state (what the JS client sends and the form action builds). */
export function saveBodyOf(storeId: string, scheduleId: number | null, state: EditorState, sensors: readonly { equipment_id: number; equipment_name: string }[]) {
  const weekly = state.scheduleType === SCHEDULE_TYPE.periodic || state.termType === TERM_TYPE.weekly;
  return {
    store_id: storeId,
    schedule_id: scheduleId,
    schedule_type: state.scheduleType,
    term_type: state.scheduleType === SCHEDULE_TYPE.periodic ? TERM_TYPE.weekly : state.termType,
    start_date: state.startDate,
    end_date: state.endDate || null,
    ...(Object.fromEntries(WEEKDAY_FLAGS.map((name, index) => [name, weekly && state.weekdays[index] ? 1 : 0])) as Record<WeekdayFlag, number>),
    time_target_type: state.target,
    times:
      state.target === TIME_TARGET_TYPE.store
        ? [{ equipment_id: null, equipment_name: null, time_schedules: rangesOfCells(state.storeCells) }]
        : sensors.map((sensor) => ({ equipment_id: sensor.equipment_id, equipment_name: sensor.equipment_name, time_schedules: rangesOfCells(state.sensorCells[sensor.equipment_id] ?? emptyCells()) })),
  };
}

/** The cell inputs' names in the form (checkboxes work without JavaScript): cells.store, cells.<equipment_id>. */
export const cellField = (target: 'store' | number) => `cells.${target}`;

/** Reads the editor's form (without or with JavaScript: the same fields) into its state. */
export function editorStateOfForm(form: FormData, sensors: readonly { equipment_id: number }[]): EditorState {
  const text = (name: string) => String(form.get(name) ?? '');
  const cellsOfField = (name: string) => {
    const cells = emptyCells();
    for (const value of form.getAll(name)) {
      const index = Number(value);
      if (Number.isInteger(index) && index >= 0 && index < CELL_COUNT) cells[index] = true;
    }
    return cells;
  };
  return {
    scheduleType: Number(text('schedule_type')) as ScheduleType,
    termType: Number(text('term_type')) as TermType,
    startDate: compactOfIso(text('start_date')),
    endDate: compactOfIso(text('end_date')),
    weekdays: WEEKDAY_FLAGS.map((name) => form.get(name) === '1'),
    target: Number(text('time_target_type')) as TimeTargetType,
    storeCells: cellsOfField(cellField('store')),
    sensorCells: Object.fromEntries(sensors.map((sensor) => [sensor.equipment_id, cellsOfField(cellField(sensor.equipment_id))])),
  };
}

/** The answer shape of a stored schedule. */
export function answerOf(
  storeId: string,
  scheduleId: number,
  schedule: AlertStopSchedule,
  names: ReadonlyMap<number, string>,
  storeLabel: string,
): AlertScheduleAnswer {
  const ranges = (list: readonly DayRange[]) => list.map((range) => ({ start: hourMinute(range.start), end: hourMinute(range.end) }));
  const byEquipment = new Map<number | null, DayRange[]>();
  for (const time of schedule.times) byEquipment.set(time.equipmentId, [...(byEquipment.get(time.equipmentId) ?? []), time]);
  const times =
    schedule.timeTargetType === TIME_TARGET_TYPE.store
      ? [{ equipment_id: null, equipment_name: storeLabel, time_schedules: ranges([...schedule.times].sort((a, b) => a.start - b.start)) }]
      : [...byEquipment.entries()].map(([equipmentId, list]) => ({
          equipment_id: equipmentId,
          equipment_name: equipmentId === null ? storeLabel : names.get(equipmentId) ?? String(equipmentId),
          time_schedules: ranges(list.sort((a, b) => a.start - b.start)),
        }));
  return {
    store_id: storeId,
    schedule_id: scheduleId,
    schedule_type: schedule.scheduleType,
    term_type: schedule.termType,
    start_date: schedule.startDate,
    end_date: schedule.endDate,
    ...(Object.fromEntries(WEEKDAY_FLAGS.map((name, index) => [name, schedule.weekdays[index] ? 1 : 0])) as Record<WeekdayFlag, number>),
    time_target_type: schedule.timeTargetType,
    times,
  };
}

/** Today's YYYYMMDD (for links without a date). */
export const todayCompact = (now: Date) => toCompactDate(now);
export const dayOf = (year: number, month: number, day: number) => toCompactDate(fromJapan(year, month, day));
