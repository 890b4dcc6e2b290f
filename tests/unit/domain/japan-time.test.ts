import { describe, expect, it } from 'vitest';
import { formatDateTime, fromJapan, parseCompact, parseHourMinute, toCompactDateTime, toCompactDateTimeMs } from '~/domain/japan-time';

describe('Japan time', () => {
  it('writes an instant as Japan wall-clock time whatever the server TZ', () => {
    const at = new Date('2026-11-20T15:30:05.123Z'); // 00:30:05 on the 21st in Tokyo
    expect(toCompactDateTime(at)).toBe('20261121003005');
    expect(toCompactDateTimeMs(at)).toBe('20261121003005123');
    expect(formatDateTime(at)).toBe('2026/11/21 00:30');
  });

  it('reads YYYYMMDD, YYYYMMDDHHmmss and YYYYMMDDHHmmssSSS as Japan time', () => {
    expect(parseCompact('20261121')?.toISOString()).toBe('2026-11-20T15:00:00.000Z');
    expect(parseCompact('20261121003005')?.toISOString()).toBe('2026-11-20T15:30:05.000Z');
    expect(parseCompact('20261121003005123')?.toISOString()).toBe('2026-11-20T15:30:05.123Z');
  });

  it('rejects impossible and malformed dates instead of rolling them over', () => {
    for (const bad of ['20260231', '20261301', '2026112', '20261121246000', 'abcdefgh', '2026-11-21']) {
      expect(parseCompact(bad)).toBeNull();
    }
  });

  it('round-trips through fromJapan', () => {
    const at = fromJapan(2026, 12, 31, 23, 59, 59);
    expect(toCompactDateTime(at)).toBe('20261231235959');
  });

  it('reads HH:mm up to 24:00', () => {
    expect(parseHourMinute('00:00')).toBe(0);
    expect(parseHourMinute('23:30')).toBe(1410);
    expect(parseHourMinute('24:00')).toBe(1440);
    expect(parseHourMinute('24:30')).toBeNull();
    expect(parseHourMinute('7:00')).toBeNull();
  });
});
