import { describe, expect, it } from 'vitest';
import {
  type AlertStopSchedule,
  isAlertStopDay,
  isInAlertStop,
  normalizeAlertStopSchedule,
  SCHEDULE_TYPE,
  TERM_TYPE,
  TIME_TARGET_TYPE,
} from '~/domain/alert-stop-schedule';
import { fromJapan } from '~/domain/japan-time';

/** "YYYY/MM/DD HH:mm(:ss)" Japan time. 2026/11/21 is a Saturday. */
function jst(value: string): Date {
  const [y, mo, d, h, mi, s = 0] = value.split(/[/ :]/).map(Number);
  return fromJapan(y, mo, d, h, mi, s);
}

const NOON_TO_ONE = [{ equipmentId: null, start: 12 * 60, end: 13 * 60 }];

/** Weekday flags from letters, Sunday first: "-M----S" is Monday and Saturday. */
const days = (flags: string) => [...flags].map((flag) => flag !== '-');

function schedule(overrides: Partial<AlertStopSchedule>): AlertStopSchedule {
  return {
    scheduleType: SCHEDULE_TYPE.sequential,
    termType: TERM_TYPE.daily,
    startDate: '20261121',
    endDate: '20261121',
    weekdays: days('-------'),
    timeTargetType: TIME_TARGET_TYPE.store,
    times: NOON_TO_ONE,
    ...overrides,
  };
}

/** Runs a table of [time, expected] against one schedule for sensor 1. */
function expectWindows(s: AlertStopSchedule, table: [string, boolean][]) {
  expect(table.map(([at]) => [at, isInAlertStop([s], 1, jst(at))])).toEqual(table);
}

describe('isInAlertStop', () => {
  it('sequential daily: one day, start of the range included, end excluded', () => {
    expectWindows(schedule({}), [
      ['2026/11/21 11:59:59', false],
      ['2026/11/21 12:00', true],
      ['2026/11/21 12:59:59', true],
      ['2026/11/21 13:00', false],
      ['2026/11/20 12:30', false],
      ['2026/11/22 12:30', false],
    ]);
  });

  it('sequential weekly: the flagged weekdays of the week from start to end', () => {
    const weekly = schedule({ termType: TERM_TYPE.weekly, startDate: '20261115', endDate: '20261121', weekdays: days('-M----S') });
    expectWindows(weekly, [
      ['2026/11/15 12:30', false], // Sunday
      ['2026/11/16 12:30', true], // Monday
      ['2026/11/17 12:30', false],
      ['2026/11/21 12:30', true], // Saturday
      ['2026/11/23 12:30', false], // Monday of the next week
    ]);
  });

  it('sequential weekly without an end date: still only the week of its start date', () => {
    const weekly = schedule({ termType: TERM_TYPE.weekly, startDate: '20261118', endDate: null, weekdays: days('SMTWTFS') });
    expectWindows(weekly, [
      ['2026/11/18 12:30', true],
      ['2026/11/21 12:30', true],
      ['2026/11/22 12:30', false],
    ]);
  });

  it('sequential free period: every day from start to end, or for ever without an end', () => {
    expectWindows(schedule({ termType: TERM_TYPE.freePeriod, startDate: '20261120', endDate: '20261125' }), [
      ['2026/11/19 12:30', false],
      ['2026/11/20 12:30', true],
      ['2026/11/25 12:30', true],
      ['2026/11/26 12:30', false],
    ]);
    expectWindows(schedule({ termType: TERM_TYPE.freePeriod, startDate: '20261120', endDate: null }), [
      ['2026/11/19 12:30', false],
      ['2030/01/01 12:30', true],
    ]);
  });

  it('periodic: the flagged weekdays of every week from the start date, until the end date if any', () => {
    const sundays = { scheduleType: SCHEDULE_TYPE.periodic, termType: TERM_TYPE.weekly, startDate: '20261101', weekdays: days('S------') };
    expectWindows(schedule({ ...sundays, endDate: null }), [
      ['2026/10/25 12:30', false], // a Sunday before the start
      ['2026/11/01 12:30', true],
      ['2027/01/03 12:30', true],
      ['2027/01/04 12:30', false], // Monday
    ]);
    expectWindows(schedule({ ...sundays, endDate: '20261130' }), [
      ['2026/11/29 12:30', true],
      ['2026/12/06 12:30', false],
    ]);
  });

  it('periodic is always weekly, whatever term type was stored', () => {
    const periodic = schedule({ scheduleType: SCHEDULE_TYPE.periodic, termType: TERM_TYPE.freePeriod, endDate: null, weekdays: days('------S') });
    expectWindows(periodic, [
      ['2026/11/28 12:30', true],
      ['2026/11/29 12:30', false],
    ]);
  });

  it('store-wide ranges cover every sensor; per-sensor ranges only their sensor', () => {
    const at = jst('2026/11/21 12:30');
    const perSensor = schedule({ timeTargetType: TIME_TARGET_TYPE.sensor, times: [{ equipmentId: 2, start: 12 * 60, end: 13 * 60 }] });
    expect(isInAlertStop([perSensor], 2, at)).toBe(true);
    expect(isInAlertStop([perSensor], 1, at)).toBe(false);
    // A store-wide schedule saved with one list per sensor (as the original screens send it) still covers them all.
    const storeWide = schedule({ times: [{ equipmentId: 2, start: 12 * 60, end: 13 * 60 }] });
    expect(isInAlertStop([storeWide], 1, at)).toBe(true);
  });

  it('joins a range ending at 24:00 with one starting at 00:00 the next day', () => {
    const overnight = schedule({
      termType: TERM_TYPE.freePeriod,
      startDate: '20261121',
      endDate: '20261122',
      times: [
        { equipmentId: null, start: 23 * 60, end: 24 * 60 },
        { equipmentId: null, start: 0, end: 60 },
      ],
    });
    expectWindows(overnight, [
      ['2026/11/21 22:59', false],
      ['2026/11/21 23:59:59', true],
      ['2026/11/22 00:00', true],
      ['2026/11/22 01:00', false],
      ['2026/11/23 00:30', false],
    ]);
  });

  it('reads days and times on the Japan clock: 03:30 UTC on the 21st is 12:30 there, 15:30 UTC on the 20th is the 21st', () => {
    const allDay = schedule({ times: [{ equipmentId: null, start: 0, end: 24 * 60 }] });
    expect(isInAlertStop([schedule({})], 1, new Date('2026-11-21T03:30:00Z'))).toBe(true);
    expect(isInAlertStop([allDay], 1, new Date('2026-11-20T15:30:00Z'))).toBe(true);
    expect(isInAlertStop([allDay], 1, new Date('2026-11-21T15:00:00Z'))).toBe(false);
  });

  it('is in a stop when any of the schedules says so', () => {
    const evening = schedule({ times: [{ equipmentId: null, start: 18 * 60, end: 19 * 60 }] });
    expect(isInAlertStop([schedule({}), evening], 1, jst('2026/11/21 18:30'))).toBe(true);
    expect(isInAlertStop([], 1, jst('2026/11/21 18:30'))).toBe(false);
  });
});

describe('isAlertStopDay (calendar highlight)', () => {
  it('marks the days the schedule is in force, whatever the time of day', () => {
    const weekly = schedule({ termType: TERM_TYPE.weekly, startDate: '20261115', endDate: '20261121', weekdays: days('-M----S') });
    expect(isAlertStopDay(weekly, jst('2026/11/16 00:00'))).toBe(true);
    expect(isAlertStopDay(weekly, jst('2026/11/16 23:59'))).toBe(true);
    expect(isAlertStopDay(weekly, jst('2026/11/17 12:00'))).toBe(false);
  });
});

describe('normalizeAlertStopSchedule (the save rules)', () => {
  it('stretches a sequential weekly schedule to the Sunday-to-Saturday week of its start date', () => {
    const saved = normalizeAlertStopSchedule(schedule({ termType: TERM_TYPE.weekly, startDate: '20261118', endDate: null, weekdays: days('-M-----') }));
    expect(saved).toMatchObject({ startDate: '20261115', endDate: '20261121', weekdays: days('-M-----') });
  });

  it('ends a sequential daily schedule on its start date and clears its weekday flags', () => {
    const saved = normalizeAlertStopSchedule(schedule({ startDate: '20261121', endDate: '20261130', weekdays: days('SMTWTFS') }));
    expect(saved).toMatchObject({ startDate: '20261121', endDate: '20261121', weekdays: days('-------') });
  });

  it('clears weekday flags of a free period and keeps its dates', () => {
    const saved = normalizeAlertStopSchedule(schedule({ termType: TERM_TYPE.freePeriod, startDate: '20261120', endDate: null, weekdays: days('S------') }));
    expect(saved).toMatchObject({ startDate: '20261120', endDate: null, weekdays: days('-------') });
  });

  it('forces periodic schedules to weekly and keeps their dates', () => {
    const saved = normalizeAlertStopSchedule(schedule({ scheduleType: SCHEDULE_TYPE.periodic, termType: TERM_TYPE.daily, startDate: '20261118', endDate: null, weekdays: days('S------') }));
    expect(saved).toMatchObject({ termType: TERM_TYPE.weekly, startDate: '20261118', endDate: null, weekdays: days('S------') });
  });
});
