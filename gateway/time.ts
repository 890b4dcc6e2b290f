// Japan time for the wire format. The gateway is deployed on its own and must not import app/,
// so this is the gateway's own copy of the few lines it needs. Japan has no daylight saving:
// a fixed +09:00 offset is exact.
export const JST_OFFSET_MS = 9 * 60 * 60 * 1000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYYMMDDHHmmss` in Japan time (the protocol's `measured_at`). */
export function formatMeasuredAt(epochMs: number): string {
  const d = new Date(epochMs + JST_OFFSET_MS);
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
  );
}

/** The instant of a `YYYYMMDDHHmmss` Japan-time value, or NaN when malformed. */
export function parseMeasuredAt(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value);
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s) - JST_OFFSET_MS;
}

/**
 * Start of the interval holding `epochMs`, on a grid anchored at a Japan midnight: an interval
 * that divides a day (60 s, 5 min, 10 min, 1 h) starts at HH:MM:00, HH:M0:00, HH:00:00 Japan
 * time, every day.
 */
export function intervalStart(epochMs: number, intervalMs: number): number {
  const local = epochMs + JST_OFFSET_MS;
  return local - (((local % intervalMs) + intervalMs) % intervalMs) - JST_OFFSET_MS;
}
