// Every YYYYMMDD… value in the API and every date on screen is Japan time, whatever the
// server's TZ. Japan has no daylight saving, so a fixed +09:00 offset is exact.
const JST_OFFSET_MS = 9 * 60 * 60 * 1000;

export interface JapanParts {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number; // 0 Sunday … 6 Saturday
}

export function japanParts(at: Date): JapanParts {
  const shifted = new Date(at.getTime() + JST_OFFSET_MS);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    millisecond: shifted.getUTCMilliseconds(),
    weekday: shifted.getUTCDay(),
  };
}

/** The instant of a Japan wall-clock time. Month is 1-12; out-of-range parts roll over like Date.UTC. */
export function fromJapan(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): Date {
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - JST_OFFSET_MS);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** YYYYMMDDHHmmss in Japan time. */
export function toCompactDateTime(at: Date): string {
  const p = japanParts(at);
  return `${p.year}${pad(p.month)}${pad(p.day)}${pad(p.hour)}${pad(p.minute)}${pad(p.second)}`;
}

/** YYYYMMDDHHmmssSSS in Japan time (alert history start_date). */
export function toCompactDateTimeMs(at: Date): string {
  return toCompactDateTime(at) + pad(japanParts(at).millisecond, 3);
}

/** YYYYMMDD in Japan time. */
export function toCompactDate(at: Date): string {
  return toCompactDateTime(at).slice(0, 8);
}

const COMPACT = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})(\d{3})?)?$/;

/**
 * Parses YYYYMMDD, YYYYMMDDHHmmss or YYYYMMDDHHmmssSSS as Japan time.
 * Returns null for a malformed or impossible value (20260231 is not 3 March).
 */
export function parseCompact(value: string): Date | null {
  const m = COMPACT.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second, ms] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const at = fromJapan(year, month, day, hour, minute, second, ms);
  const back = japanParts(at);
  if (back.year !== year || back.month !== month || back.day !== day) return null;
  return at;
}

/** YYYY/MM/DD HH:mm in Japan time, as the screens show it. */
export function formatDateTime(at: Date): string {
  const p = japanParts(at);
  return `${p.year}/${pad(p.month)}/${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}`;
}

/** YYYY/MM/DD in Japan time. */
export function formatDate(at: Date): string {
  return formatDateTime(at).slice(0, 10);
}

/** Minutes since Japan midnight (0-1439), for daily ranges such as defrost times. */
export function japanMinuteOfDay(at: Date | number): number {
  // A fixed offset (no daylight saving): plain arithmetic, no Date parts (report tables call it per row).
  const minutes = Math.floor(((typeof at === 'number' ? at : at.getTime()) + JST_OFFSET_MS) / 60_000) % 1440;
  return minutes < 0 ? minutes + 1440 : minutes;
}

/** Japan midnight that starts the day containing `at`. */
export function startOfJapanDay(at: Date): Date {
  const p = japanParts(at);
  return fromJapan(p.year, p.month, p.day);
}

/** "HH:mm" (00:00-24:00) to minutes since midnight, or null. */
export function parseHourMinute(value: string): number | null {
  const m = /^(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  if (Number(m[2]) > 59 || minutes > 24 * 60) return null;
  return minutes;
}

/** A daily wall-clock range in minutes since Japan midnight: start inclusive, end exclusive (1440 is 24:00). */
export interface DayRange {
  start: number;
  end: number;
}

/** Whether `at`, read on the Japan wall clock, falls inside one of the daily ranges. */
export function isWithinDayRanges(ranges: readonly DayRange[], at: Date | number): boolean {
  const minute = japanMinuteOfDay(at);
  return ranges.some((range) => range.start <= minute && minute < range.end);
}
