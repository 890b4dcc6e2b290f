import { describe, expect, it } from 'vitest';
import { fromJapan } from '~/domain/japan-time';
import { QUIET_HOURS_MESSAGES, QuietHoursSaveSchema, quietHoursEnd } from '~/domain/quiet-hours';

// A user's quiet hours (decision 315): when a notification falls inside them, it is held until they end.

const night = { startMinute: 22 * 60, endMinute: 6 * 60 };
const lunch = { startMinute: 12 * 60, endMinute: 13 * 60 + 30 };

describe('quietHoursEnd', () => {
  it.each([
    ['21:59 before a night span', night, fromJapan(2026, 11, 20, 21, 59, 30), null],
    ['22:00 its start (inside)', night, fromJapan(2026, 11, 20, 22, 0), fromJapan(2026, 11, 21, 6, 0)],
    ['23:59:59 before midnight', night, fromJapan(2026, 11, 20, 23, 59, 59, 999), fromJapan(2026, 11, 21, 6, 0)],
    ['00:00 after midnight', night, fromJapan(2026, 11, 21, 0, 0), fromJapan(2026, 11, 21, 6, 0)],
    ['05:59:30 a minute before the end', night, fromJapan(2026, 11, 21, 5, 59, 30), fromJapan(2026, 11, 21, 6, 0)],
    ['06:00 its end (outside)', night, fromJapan(2026, 11, 21, 6, 0), null],
    ['12:00 a day span', lunch, fromJapan(2026, 11, 20, 12, 0), fromJapan(2026, 11, 20, 13, 30)],
    ['13:29 a day span', lunch, fromJapan(2026, 11, 20, 13, 29, 10), fromJapan(2026, 11, 20, 13, 30)],
    ['13:30 after a day span', lunch, fromJapan(2026, 11, 20, 13, 30), null],
    ['23:00 outside a day span', lunch, fromJapan(2026, 11, 20, 23, 0), null],
  ])('%s', (_name, quiet, now, end) => {
    expect(quietHoursEnd(quiet, now)).toEqual(end);
  });

  it('holds nothing for a user without quiet hours', () => {
    expect(quietHoursEnd(null, fromJapan(2026, 11, 20, 3, 0))).toBeNull();
  });

  it('reads Japan time whatever the instant: 22:30 JST is 13:30 UTC', () => {
    expect(quietHoursEnd(night, new Date('2026-11-20T13:30:00Z'))).toEqual(new Date('2026-11-20T21:00:00Z'));
    expect(quietHoursEnd(night, new Date('2026-11-20T22:30:00Z'))).toBeNull();
  });
});

describe('QuietHoursSaveSchema', () => {
  it('takes HH:MM pairs and both empty', () => {
    expect(QuietHoursSaveSchema.parse({ quiet_start: '22:00', quiet_end: '06:00' })).toEqual(night);
    expect(QuietHoursSaveSchema.parse({ quiet_start: '', quiet_end: '' })).toBeNull();
    expect(QuietHoursSaveSchema.parse({ quiet_start: null, quiet_end: null })).toBeNull();
  });

  it.each([
    [{ quiet_start: '22:00', quiet_end: '' }, 'quiet_end', QUIET_HOURS_MESSAGES.bothOrNeither],
    [{ quiet_start: null, quiet_end: '06:00' }, 'quiet_start', QUIET_HOURS_MESSAGES.bothOrNeither],
    [{ quiet_end: '06:00' }, 'quiet_start', QUIET_HOURS_MESSAGES.bothOrNeither],
    [{ quiet_start: '24:00', quiet_end: '06:00' }, 'quiet_start', QUIET_HOURS_MESSAGES.timeInvalid],
    [{ quiet_start: '7:00', quiet_end: '06:00' }, 'quiet_start', QUIET_HOURS_MESSAGES.timeInvalid],
    [{ quiet_start: '22:00', quiet_end: 600 }, 'quiet_end', QUIET_HOURS_MESSAGES.timeInvalid],
    [{ quiet_start: '22:00', quiet_end: '22:00' }, 'quiet_end', QUIET_HOURS_MESSAGES.sameTime],
  ])('refuses %j naming %s', (input, field, message) => {
    const result = QuietHoursSaveSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues).toEqual([expect.objectContaining({ path: [field], message })]);
  });
});
