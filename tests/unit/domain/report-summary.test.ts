import { describe, expect, it } from 'vitest';
import { SCHEDULE_TYPE, TERM_TYPE, TIME_TARGET_TYPE } from '~/domain/alert-stop-schedule';
import { fromJapan } from '~/domain/japan-time';
import type { ReportSettingsPeriod } from '~/domain/report-document';
import { defrostWindows, stopWindows } from '~/domain/report-rows';
import { summaryOf } from '~/domain/report-summary';

// The one summary rule (issue 29): counted figures leave the defrost and alert-stop windows out,
// "all" keeps every value reading, coverage counts the 10-minute slots with a value reading. The
// expected figures are worked out by hand below.

const at = (minute: number) => fromJapan(2026, 11, 2, 0, minute);
// A hot-snack warmer: 55–70 ℃, defrost 00:10–00:20, alerts stopped store-wide 00:30–01:00.
const settings: ReportSettingsPeriod[] = [{ from: at(0), to: null, lowerLimit: 55, upperLimit: 70, defrost: [{ start: '00:10', end: '00:20' }] }];
const schedule = { scheduleType: SCHEDULE_TYPE.sequential, termType: TERM_TYPE.daily, startDate: '20261102', endDate: '20261102', weekdays: Array(7).fill(false), timeTargetType: TIME_TARGET_TYPE.store, times: [{ equipmentId: null, start: 30, end: 60 }] };
const period = { from: at(0), to: at(50) };
const span = { from: at(0), until: at(60) };
const excluded = [...defrostWindows(period, settings), ...stopWindows(period, [schedule], 1)];

const value = (minute: number, temperature: number) => ({ at: at(minute), temperature, error: false });
const readings = [
  value(0, 60),
  value(5, 62),
  value(10, 40), // defrost
  value(15, 45), // defrost
  value(20, 58),
  value(25, 50), // counted, below 55: one minute outside
  value(30, 30), // alert stop
  // nothing at 00:35–00:45: the 00:40 slot is empty
  value(50, 72), // alert stop, above 70: not a minute outside
  { at: at(52), temperature: null, error: true },
  value(55, 71), // alert stop; belongs to the 01:00 slot, outside the span's slots
];

describe('the report summary rule', () => {
  it('lays out the excluded windows from the defrost ranges and the alert-stop schedule', () => {
    expect(excluded).toEqual([
      { from: at(10), to: at(20) },
      { from: at(30), to: at(60) },
    ]);
  });

  it('gives the counted figures, every reading beside them, the minutes outside and the coverage', () => {
    expect(summaryOf(readings, settings, excluded, span)).toEqual({
      // 60, 62, 58, 50: min 50, max 62, mean 230 / 4 = 57.5.
      min: 50,
      max: 62,
      mean: 57.5,
      count: 4,
      minutesOutside: 1,
      // Nine values (the error left out): min 30, max 72, mean 488 / 9 = 54.22… → 54.2.
      all: { min: 30, max: 72, mean: 54.2, count: 9 },
      // Slots 00:00, 00:10, 00:20, 00:30, 00:40, 00:50; 00:40 has no reading.
      coverage: { slots: 6, withReadings: 5 },
    });
  });

  it('gives one set of figures when nothing was excluded, and none without readings', () => {
    const plain = summaryOf(readings, settings, [], span);
    expect(plain.all).toBeNull();
    expect(plain).toMatchObject({ min: 30, max: 72, mean: 54.2, count: 9, minutesOutside: 6 });
    expect(summaryOf([], settings, excluded, span)).toEqual({ min: null, max: null, mean: null, count: 0, minutesOutside: 0, all: null, coverage: { slots: 6, withReadings: 0 } });
  });
});
