// Defrost ranges (def_time): daily HH:mm ranges, Japan time, during which a freezer heats up on
// purpose. Readings inside them never start or confirm a temperature alert (see alert-engine.ts).
import { type DayRange, isWithinDayRanges, parseHourMinute } from './japan-time';

/** One def_time entry as the API and the sensors.def_time column carry it. */
export interface DefrostTime {
  start: string; // HH:mm
  end: string; // HH:mm, up to 24:00
}

/**
 * Why a def_time list is refused (001 §4): `format` not HH:mm, `order` start not before end
 * (so a range never crosses midnight), `overlap` two ranges overlap or repeat.
 */
export type DefrostTimeError = 'format' | 'order' | 'overlap';

export type ParsedDefrostTimes =
  | { ok: true; ranges: DayRange[] }
  | { ok: false; error: DefrostTimeError; index: number }; // index into the given list

/** Validates a def_time list and returns its ranges sorted by start, in minutes since midnight. */
export function parseDefrostTimes(times: readonly DefrostTime[]): ParsedDefrostTimes {
  const indexed: { range: DayRange; index: number }[] = [];
  for (const [index, time] of times.entries()) {
    const start = parseHourMinute(time.start);
    const end = parseHourMinute(time.end);
    if (start === null || end === null) return { ok: false, error: 'format', index };
    if (start >= end) return { ok: false, error: 'order', index };
    indexed.push({ range: { start, end }, index });
  }
  indexed.sort((a, b) => a.range.start - b.range.start);
  for (let i = 1; i < indexed.length; i++) {
    if (indexed[i].range.start < indexed[i - 1].range.end) return { ok: false, error: 'overlap', index: indexed[i].index };
  }
  return { ok: true, ranges: indexed.map(({ range }) => range) };
}

/** Whether a reading taken at `at` falls in a defrost range (start inclusive, end exclusive). */
export function isInDefrost(ranges: readonly DayRange[], at: Date): boolean {
  return isWithinDayRanges(ranges, at);
}

/**
 * A sensor's defrost ranges as stored in sensors.def_time. Saved ranges were checked by the
 * sensor form; a malformed stored value reads as none, so it never stops alerting or a view.
 */
export function defrostRangesOf(defTime: readonly DefrostTime[] | null | undefined): DayRange[] {
  const parsed = parseDefrostTimes(defTime ?? []);
  return parsed.ok ? parsed.ranges : [];
}
