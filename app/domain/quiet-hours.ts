import { z } from 'zod';
import { dbText } from './input-schemas';
import { japanParts } from './japan-time';

// A user's quiet hours (issue 28, docs/decisions/315-quiet-hours.md): a span of the day, Japan
// time, in which escalation steps that allow it hold the user's notifications until it ends.
// Pure: the clock is passed in.

export interface QuietHours {
  /** Minutes of the day, Japan time: 0 … 1439. start > end spans midnight (22:00 → 06:00). */
  startMinute: number;
  endMinute: number;
}

export const QUIET_HOURS_TEXTS = {
  title: '通知しない時間帯',
  start: '開始',
  end: '終了',
  help: 'この時間帯に発生した警報のうち、エスカレーション設定で「通知しない時間帯を守る」とした段階の通知は、時間帯の終わりに送ります（破棄はしません）。空欄にすると設定なしです。',
  save: '保存',
  saved: '通知しない時間帯を保存しました。',
  none: '設定なし',
} as const;

export const QUIET_HOURS_MESSAGES = {
  timeInvalid: '時刻はHH:MM（00:00〜23:59）で入力してください。',
  bothOrNeither: '開始と終了の両方を入力するか、両方を空欄にしてください。',
  sameTime: '開始と終了は異なる時刻にしてください。',
} as const;

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_MINUTES = 24 * 60;

export const minuteOfDayText = (minute: number): string => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const minuteOf = (text: string): number => {
  const [, hours, minutes] = HHMM.exec(text)!;
  return Number(hours) * 60 + Number(minutes);
};

// Both keys are required (a body without them is not a request to clear); '' is null, as a form's empty field.
const time = z.preprocess((value) => (value === '' ? null : value), dbText({ required_error: QUIET_HOURS_MESSAGES.bothOrNeither, invalid_type_error: QUIET_HOURS_MESSAGES.timeInvalid }).regex(HHMM, QUIET_HOURS_MESSAGES.timeInvalid).nullable());

/**
 * POST /v1/user/quiet_hours and the form (parsed without Conform's coercion, so an empty field is
 * '' and clears): "HH:MM" both, or both empty / null (no quiet hours).
 */
export const QuietHoursSaveSchema = z
  .object({ quiet_start: time, quiet_end: time })
  .superRefine((value, ctx) => {
    if ((value.quiet_start === null) !== (value.quiet_end === null)) ctx.addIssue({ code: 'custom', path: [value.quiet_start === null ? 'quiet_start' : 'quiet_end'], message: QUIET_HOURS_MESSAGES.bothOrNeither });
    else if (value.quiet_start !== null && value.quiet_start === value.quiet_end) ctx.addIssue({ code: 'custom', path: ['quiet_end'], message: QUIET_HOURS_MESSAGES.sameTime });
  })
  .transform((value): QuietHours | null => (value.quiet_start === null || value.quiet_end === null ? null : { startMinute: minuteOf(value.quiet_start), endMinute: minuteOf(value.quiet_end) }));

/** The stored pair as QuietHours, or null (none, or half a pair that the table's check forbids). */
export function quietHoursOf(startMinute: number | null, endMinute: number | null): QuietHours | null {
  return startMinute === null || endMinute === null ? null : { startMinute, endMinute };
}

/**
 * When `now` falls in the quiet hours, the instant they end (Japan time); else null. The start is
 * inside, the end is not: 22:00–06:00 holds a notification of 22:00 and of 05:59 until 06:00, and
 * sends one of 06:00 at once.
 */
export function quietHoursEnd(quiet: QuietHours | null, now: Date): Date | null {
  if (quiet === null) return null;
  const p = japanParts(now);
  const minute = p.hour * 60 + p.minute;
  const { startMinute: start, endMinute: end } = quiet;
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!inside) return null;
  const untilEnd = (end - minute + DAY_MINUTES) % DAY_MINUTES;
  const startOfMinute = now.getTime() - p.second * 1000 - p.millisecond;
  return new Date(startOfMinute + untilEnd * 60_000);
}
