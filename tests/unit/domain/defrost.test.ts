import { describe, expect, it } from 'vitest';
import { defrostRangesOf, isInDefrost, parseDefrostTimes } from '~/domain/defrost';
import { fromJapan } from '~/domain/japan-time';

describe('parseDefrostTimes (def_time)', () => {
  it('returns the ranges sorted by start, in minutes since midnight', () => {
    expect(parseDefrostTimes([
      { start: '14:00', end: '14:30' },
      { start: '02:00', end: '02:45' },
      { start: '23:30', end: '24:00' },
    ])).toEqual({ ok: true, ranges: [{ start: 120, end: 165 }, { start: 840, end: 870 }, { start: 1410, end: 1440 }] });
    expect(parseDefrostTimes([])).toEqual({ ok: true, ranges: [] });
  });

  it.each([
    [[{ start: '2:00', end: '02:30' }], 'format', 0],
    [[{ start: '02:00', end: '02:60' }], 'format', 0],
    [[{ start: '02:00', end: '02:30' }, { start: '03:00', end: '03:00' }], 'order', 1],
    [[{ start: '23:00', end: '01:00' }], 'order', 0], // no range across midnight
    [[{ start: '04:00', end: '05:00' }, { start: '02:00', end: '04:30' }], 'overlap', 0],
    [[{ start: '02:00', end: '02:30' }, { start: '02:00', end: '02:30' }], 'overlap', 1],
  ])('refuses %j: %s at index %s', (times, error, index) => {
    expect(parseDefrostTimes(times)).toEqual({ ok: false, error, index });
  });

  it('accepts ranges that touch', () => {
    expect(parseDefrostTimes([{ start: '02:00', end: '02:30' }, { start: '02:30', end: '03:00' }]).ok).toBe(true);
  });
});

describe('isInDefrost', () => {
  const ranges = [{ start: 120, end: 150 }]; // 02:00-02:30
  const jst = (hour: number, minute: number, second = 0) => fromJapan(2026, 11, 21, hour, minute, second);

  it.each([
    [jst(1, 59, 59), false],
    [jst(2, 0), true], // start included
    [jst(2, 29, 59), true],
    [jst(2, 30), false], // end excluded
  ])('%s → %s', (at, expected) => {
    expect(isInDefrost(ranges, at)).toBe(expected);
  });

  it('reads the Japan wall clock whatever the server time zone: 17:10 UTC is 02:10 in Japan', () => {
    expect(isInDefrost(ranges, new Date('2026-11-20T17:10:00Z'))).toBe(true);
    expect(isInDefrost(ranges, new Date('2026-11-21T02:10:00Z'))).toBe(false);
  });

  it('covers the last minutes of the day with an end of 24:00', () => {
    expect(isInDefrost([{ start: 1410, end: 1440 }], jst(23, 59, 59))).toBe(true);
    expect(isInDefrost([{ start: 1410, end: 1440 }], jst(0, 0))).toBe(false);
  });
});

describe('defrostRangesOf (stored sensors.def_time)', () => {
  it('reads a stored list as its sorted ranges', () => {
    expect(defrostRangesOf([{ start: '14:00', end: '14:30' }, { start: '02:00', end: '02:30' }])).toEqual([{ start: 120, end: 150 }, { start: 840, end: 870 }]);
  });

  it('reads nothing, null and a malformed stored value as no defrost', () => {
    expect(defrostRangesOf(null)).toEqual([]);
    expect(defrostRangesOf(undefined)).toEqual([]);
    expect(defrostRangesOf([{ start: '03:00', end: '02:00' }])).toEqual([]);
    expect(defrostRangesOf([{ start: 'x', end: '02:00' }])).toEqual([]);
  });
});
