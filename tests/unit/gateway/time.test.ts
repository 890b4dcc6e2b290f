import { describe, expect, it } from 'vitest';
import { formatMeasuredAt, intervalStart, parseMeasuredAt } from '../../../gateway/time';

describe('measured_at in Japan time', () => {
  it('formats an instant as YYYYMMDDHHmmss at UTC+9, whatever the machine TZ', () => {
    expect(formatMeasuredAt(Date.parse('2026-01-15T00:00:00Z'))).toBe('20260115090000');
    expect(formatMeasuredAt(Date.parse('2026-01-15T14:59:59Z'))).toBe('20260115235959');
    // 15:00 UTC is already the next day in Japan, across a month and a year end too.
    expect(formatMeasuredAt(Date.parse('2026-01-31T15:00:00Z'))).toBe('20260201000000');
    expect(formatMeasuredAt(Date.parse('2025-12-31T15:30:05Z'))).toBe('20260101003005');
  });

  it('parses it back', () => {
    expect(parseMeasuredAt('20260115090000')).toBe(Date.parse('2026-01-15T00:00:00Z'));
    expect(parseMeasuredAt('2026-01-15')).toBeNaN();
  });
});

describe('interval start', () => {
  it('labels a minute interval HH:MM:00', () => {
    const t = Date.parse('2026-01-15T03:04:59.999Z');
    expect(formatMeasuredAt(intervalStart(t, 60_000))).toBe('20260115120400');
    expect(formatMeasuredAt(intervalStart(Date.parse('2026-01-15T03:05:00Z'), 60_000))).toBe('20260115120500');
  });

  it('aligns intervals that divide a day with Japan time (10 min at HH:M0, 1 h at HH:00)', () => {
    expect(formatMeasuredAt(intervalStart(Date.parse('2026-01-15T03:29:00Z'), 10 * 60_000))).toBe('20260115122000');
    expect(formatMeasuredAt(intervalStart(Date.parse('2026-01-15T15:59:59Z'), 3600_000))).toBe('20260116000000');
  });
});
