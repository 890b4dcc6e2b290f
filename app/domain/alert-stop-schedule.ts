// Alert-stop schedules (警報停止, spec 001 §2-§5): windows during which no alert opens and nothing
// is notified for the covered sensors. A schedule picks days (by its type and term) and, on each of
// those days, Japan wall-clock ranges on the 30-minute grid, store-wide or per sensor.
import { type DayRange, fromJapan, isWithinDayRanges, japanParts, toCompactDate } from './japan-time';

export const SCHEDULE_TYPE = { sequential: 1, periodic: 2 } as const;
export const TERM_TYPE = { weekly: 1, daily: 2, freePeriod: 3 } as const;
export const TIME_TARGET_TYPE = { store: 1, sensor: 2 } as const;

export type ScheduleType = (typeof SCHEDULE_TYPE)[keyof typeof SCHEDULE_TYPE];
export type TermType = (typeof TERM_TYPE)[keyof typeof TERM_TYPE];
export type TimeTargetType = (typeof TIME_TARGET_TYPE)[keyof typeof TIME_TARGET_TYPE];

/** One time range of a schedule (a row of alert_schedule_times); equipmentId null for store-wide ranges. */
export interface AlertStopTime extends DayRange {
  equipmentId: number | null;
}

export interface AlertStopSchedule {
  scheduleType: ScheduleType;
  termType: TermType;
  startDate: string; // YYYYMMDD, Japan time
  endDate: string | null; // YYYYMMDD; null is open-ended
  weekdays: readonly boolean[]; // Sunday first, as sun_flg … sat_flg; used by weekly terms only
  timeTargetType: TimeTargetType;
  times: readonly AlertStopTime[];
}

/** Whether alerts of sensor `equipmentId` are stopped at `at` by one of the store's schedules. */
export function isInAlertStop(schedules: readonly AlertStopSchedule[], equipmentId: number, at: Date): boolean {
  return schedules.some((schedule) => isAlertStopDay(schedule, at) && isWithinDayRanges(rangesFor(schedule, equipmentId), at));
}

/** Whether the schedule is in force on the Japan day containing `at` (the calendar highlights such days). */
export function isAlertStopDay(schedule: AlertStopSchedule, at: Date): boolean {
  const day = toCompactDate(at);
  const lastDay = lastCoveredDay(schedule);
  if (day < schedule.startDate || (lastDay !== null && day > lastDay)) return false;
  return !isWeekly(schedule) || schedule.weekdays[japanParts(at).weekday] === true;
}

const NO_WEEKDAYS: readonly boolean[] = Array(7).fill(false);

/**
 * The save rules of 001 §4: periodic forces weekly; sequential weekly spans the Sunday-to-Saturday
 * week of its start date; sequential daily ends on its start date; weekday flags only for weekly.
 */
export function normalizeAlertStopSchedule(schedule: AlertStopSchedule): AlertStopSchedule {
  if (schedule.scheduleType === SCHEDULE_TYPE.periodic) return { ...schedule, termType: TERM_TYPE.weekly };
  switch (schedule.termType) {
    case TERM_TYPE.weekly: {
      const sunday = weekStart(schedule.startDate);
      return { ...schedule, startDate: sunday, endDate: shiftDay(sunday, 6) };
    }
    case TERM_TYPE.daily:
      return { ...schedule, endDate: schedule.startDate, weekdays: NO_WEEKDAYS };
    case TERM_TYPE.freePeriod:
      return { ...schedule, weekdays: NO_WEEKDAYS };
  }
}

function isWeekly(schedule: AlertStopSchedule): boolean {
  return schedule.scheduleType === SCHEDULE_TYPE.periodic || schedule.termType === TERM_TYPE.weekly;
}

/** The last covered day, or null when the schedule never ends (periodic or free period without end date). */
function lastCoveredDay(schedule: AlertStopSchedule): string | null {
  if (schedule.scheduleType === SCHEDULE_TYPE.periodic) return schedule.endDate;
  switch (schedule.termType) {
    case TERM_TYPE.daily:
      return schedule.startDate;
    case TERM_TYPE.weekly:
      // The UI always saves the Saturday; without one the schedule still covers only that week.
      return schedule.endDate ?? shiftDay(weekStart(schedule.startDate), 6);
    case TERM_TYPE.freePeriod:
      return schedule.endDate;
  }
}

/** Store-wide ranges apply to every sensor whatever equipment they were saved under; per-sensor ranges to theirs only. */
function rangesFor(schedule: AlertStopSchedule, equipmentId: number): readonly DayRange[] {
  if (schedule.timeTargetType === TIME_TARGET_TYPE.store) return schedule.times;
  return schedule.times.filter((time) => time.equipmentId === equipmentId);
}

const DAY_MS = 24 * 60 * 60 * 1000;

function dayStart(date: string): Date {
  return fromJapan(Number(date.slice(0, 4)), Number(date.slice(4, 6)), Number(date.slice(6, 8)));
}

/** YYYYMMDD plus `days` (Japan has no daylight saving, so a day is always 24 hours). */
function shiftDay(date: string, days: number): string {
  return toCompactDate(new Date(dayStart(date).getTime() + days * DAY_MS));
}

/** The Sunday that starts the week of a YYYYMMDD day. */
function weekStart(date: string): string {
  return shiftDay(date, -japanParts(dayStart(date)).weekday);
}
