import { describe, expect, it } from 'vitest';
import {
  ALERT_STOP_MESSAGES,
  AlertScheduleSaveSchema,
  applyDialog,
  cellsOf,
  checkRange,
  clearRange,
  coversRange,
  editorStateOf,
  emptyCells,
  listRange,
  listRows,
  mergeCells,
  presetFor,
  saveBodyOf,
  toSchedule,
} from '~/domain/alert-stop-editor';

const cells = (...indexes: number[]) => emptyCells().map((_, index) => indexes.includes(index));
const H = (hour: number, minute = 0) => hour * 60 + minute;

describe('the time grid (001 §4)', () => {
  it('presets an unset cell on the hour to 30 minutes later, a half-hour cell to the next full hour', () => {
    expect(presetFor(emptyCells(), 2)).toEqual({ start: H(1), end: H(1, 30) });
    expect(presetFor(emptyCells(), 3)).toEqual({ start: H(1, 30), end: H(2) });
    expect(presetFor(emptyCells(), 47)).toEqual({ start: H(23, 30), end: H(24) });
  });

  it('presets a set cell to the contiguous run of set cells around it', () => {
    expect(presetFor(cells(4, 5, 6, 9), 5)).toEqual({ start: H(2), end: H(3, 30) });
    expect(presetFor(cells(46, 47), 46)).toEqual({ start: H(23), end: H(24) });
  });

  it('reads an end of 00:00 as 24:00 and requires start before end', () => {
    expect(checkRange(H(22), 0)).toEqual({ start: H(22), end: H(24) });
    expect(checkRange(H(3), H(3))).toBeNull();
    expect(checkRange(H(5), H(4))).toBeNull();
    expect(checkRange(H(5), H(5, 15))).toBeNull();
  });

  it('decide clears the old range then sets the new one; clear empties the range', () => {
    const before = cells(4, 5, 6);
    expect(mergeCells(applyDialog(before, { start: H(2), end: H(3, 30) }, { start: H(10), end: H(11) }))).toEqual([{ start: H(10), end: H(11) }]);
    expect(mergeCells(applyDialog(before, null, { start: H(3), end: H(4) }))).toEqual([{ start: H(2), end: H(4) }]);
    expect(mergeCells(clearRange(before, { start: H(2, 30), end: H(3) }))).toEqual([{ start: H(2), end: H(2, 30) }, { start: H(3), end: H(3, 30) }]);
  });

  it('merges consecutive set cells into ranges, the last open run ending at 24:00', () => {
    expect(mergeCells(cells(0, 1, 2, 10, 46, 47))).toEqual([{ start: 0, end: H(1, 30) }, { start: H(5), end: H(5, 30) }, { start: H(23), end: H(24) }]);
    expect(mergeCells(emptyCells())).toEqual([]);
    expect(mergeCells(cellsOf([{ start: H(1), end: H(2) }, { start: H(2), end: H(3) }]))).toEqual([{ start: H(1), end: H(3) }]);
  });
});

const body = (overrides: Record<string, unknown> = {}) => ({
  store_id: 'S001',
  schedule_id: null,
  schedule_type: 1,
  term_type: 2,
  start_date: '20261125',
  end_date: null,
  time_target_type: 1,
  times: [{ equipment_id: null, time_schedules: [{ start: '09:00', end: '10:00' }] }],
  ...overrides,
});
const parse = (overrides: Record<string, unknown> = {}) => AlertScheduleSaveSchema.safeParse(body(overrides));
const fieldsOf = (overrides: Record<string, unknown>) => {
  const result = parse(overrides);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('the save rules (001 §4, §5)', () => {
  it('periodic forces weekly and keeps its end (or null) and weekdays', () => {
    const result = parse({ schedule_type: 2, term_type: 3, start_date: '20261125', end_date: '20261231', mon_flg: 1 });
    expect(result.success).toBe(true);
    const schedule = toSchedule(result.data!)!;
    expect(schedule).toMatchObject({ scheduleType: 2, termType: 1, startDate: '20261125', endDate: '20261231' });
    expect(schedule.weekdays).toEqual([false, true, false, false, false, false, false]);
  });

  it('sequential weekly spans Sunday to Saturday of the start date', () => {
    const schedule = toSchedule(parse({ term_type: 1, start_date: '20261125', end_date: '20270101', fri_flg: 1 }).data!)!;
    expect(schedule).toMatchObject({ startDate: '20261122', endDate: '20261128' });
  });

  it('sequential daily ends on its start and drops the weekday flags', () => {
    const schedule = toSchedule(parse({ term_type: 2, start_date: '20261125', end_date: '20261130', tue_flg: 1 }).data!)!;
    expect(schedule).toMatchObject({ startDate: '20261125', endDate: '20261125' });
    expect(schedule.weekdays.every((day) => !day)).toBe(true);
  });

  it('an empty end becomes null (free period without end)', () => {
    expect(toSchedule(parse({ term_type: 3, end_date: '' }).data!)!.endDate).toBeNull();
  });

  it('refuses a start not before the end, and invalid dates, with 期間の指定が違います', () => {
    expect(fieldsOf({ term_type: 3, start_date: '20261125', end_date: '20261120' })).toEqual({ end_date: ALERT_STOP_MESSAGES.period });
    expect(fieldsOf({ term_type: 3, start_date: '20261125', end_date: '20261125' })).toEqual({ end_date: ALERT_STOP_MESSAGES.period });
    expect(fieldsOf({ start_date: '20260231' })).toEqual({ start_date: ALERT_STOP_MESSAGES.period });
    expect(fieldsOf({ start_date: '' })).toEqual({ start_date: ALERT_STOP_MESSAGES.period });
    expect(fieldsOf({ term_type: 3, end_date: '2026113' })).toEqual({ end_date: ALERT_STOP_MESSAGES.period });
  });

  it('refuses a schedule without any set cell with 警報停止時間を設定してください', () => {
    expect(fieldsOf({ times: [{ equipment_id: null, time_schedules: [] }] })).toEqual({ times: ALERT_STOP_MESSAGES.noTime });
    expect(fieldsOf({ time_target_type: 2, times: [{ equipment_id: 3, time_schedules: [] }] })).toEqual({ times: ALERT_STOP_MESSAGES.noTime });
  });

  it('asks for a weekday on weekly terms', () => {
    expect(fieldsOf({ term_type: 1 })).toEqual({ sun_flg: ALERT_STOP_MESSAGES.choose });
  });

  it('takes end 00:00 and 24:00 as the end of the day and merges overlapping ranges', () => {
    const schedule = toSchedule(parse({ times: [{ equipment_id: null, time_schedules: [{ start: '22:00', end: '00:00' }, { start: '21:00', end: '22:30' }] }] }).data!)!;
    expect(schedule.times).toEqual([{ equipmentId: null, start: H(21), end: H(24) }]);
    expect(fieldsOf({ times: [{ equipment_id: null, time_schedules: [{ start: '10:00', end: '09:00' }] }] })).toHaveProperty(['times.0.time_schedules.0.end'], 'start must be before end');
    expect(fieldsOf({ times: [{ equipment_id: null, time_schedules: [{ start: '10:15', end: '11:00' }] }] })).toHaveProperty(['times.0.time_schedules.0.start']);
  });

  it('a store target keeps the first non-empty list; a sensor target each sensor\'s ranges', () => {
    const store = toSchedule(parse({ times: [{ equipment_id: 1, time_schedules: [] }, { equipment_id: 2, time_schedules: [{ start: '01:00', end: '02:00' }] }] }).data!)!;
    expect(store.times).toEqual([{ equipmentId: null, start: H(1), end: H(2) }]);
    const sensor = toSchedule(parse({ time_target_type: 2, times: [{ equipment_id: 1, time_schedules: [{ start: '01:00', end: '02:00' }] }, { equipment_id: 2, time_schedules: [{ start: '03:00', end: '03:30' }] }] }).data!)!;
    expect(sensor.times).toEqual([{ equipmentId: 1, start: H(1), end: H(2) }, { equipmentId: 2, start: H(3), end: H(3, 30) }]);
  });
});

describe('the editor state', () => {
  const sensors = [{ equipment_id: 1, equipment_name: '冷蔵庫' }, { equipment_id: 2, equipment_name: '冷凍庫' }];
  const saved = {
    store_id: 'S001', schedule_id: 5, schedule_type: 1, term_type: 2, start_date: '20261125', end_date: '20261125',
    sun_flg: 0, mon_flg: 0, tue_flg: 0, wed_flg: 0, thu_flg: 0, fri_flg: 0, sat_flg: 0, time_target_type: 1,
    times: [{ equipment_id: 1, equipment_name: '冷蔵庫', time_schedules: [] }, { equipment_id: 2, equipment_name: '冷凍庫', time_schedules: [{ start: '06:00', end: '07:00' }] }],
  };

  it('on edit, a store target whose first list is empty copies the first non-empty list', () => {
    expect(mergeCells(editorStateOf(saved, sensors).storeCells)).toEqual([{ start: H(6), end: H(7) }]);
  });

  it('builds the POST body: weekday flags only for weekly, one store list or a list per sensor', () => {
    const state = { ...editorStateOf(saved, sensors), weekdays: [true, false, false, false, false, false, false] };
    const daily = saveBodyOf('S001', 5, state, sensors);
    expect(daily.sun_flg).toBe(0);
    expect(daily.times).toEqual([{ equipment_id: null, equipment_name: null, time_schedules: [{ start: '06:00', end: '07:00' }] }]);
    const weekly = saveBodyOf('S001', 5, { ...state, termType: 1, target: 2, sensorCells: { 1: cells(47), 2: emptyCells() } }, sensors);
    expect(weekly.sun_flg).toBe(1);
    expect(weekly.times[0]).toEqual({ equipment_id: 1, equipment_name: '冷蔵庫', time_schedules: [{ start: '23:30', end: '24:00' }] });
  });
});

describe('the list', () => {
  const weekly = { scheduleType: 2 as const, termType: 1 as const, startDate: '20261101', endDate: null, weekdays: [false, false, true, false, false, false, false], timeTargetType: 1 as const, times: [] };

  it('lists a schedule in force on a day of the range (weekdays of weekly terms count)', () => {
    expect(coversRange(weekly, '20261124', '20261124')).toBe(true); // a Tuesday
    expect(coversRange(weekly, '20261125', '20261125')).toBe(false);
    expect(coversRange(weekly, '20261125', '20261201')).toBe(true);
    expect(coversRange(weekly, '20261020', '20261031')).toBe(false);
  });

  it('checks the route dates: real days, in order, at most 366 days apart', () => {
    expect(listRange('20261124', '20261124')).toEqual({ startDate: '20261124', endDate: '20261124' });
    expect(listRange('20261125', '20261124')).toBeNull();
    expect(listRange('20260230', '20260301')).toBeNull();
    expect(listRange('abc', '20261124')).toBeNull();
    expect(listRange('20250101', '20261124')).toBeNull();
  });

  it('shows the type, the date text, the times per target and the weekdays', () => {
    const rows = listRows([
      { store_id: 'S', schedule_id: 1, schedule_type: 2, term_type: 1, start_date: '20261101', end_date: null, sun_flg: 0, mon_flg: 1, tue_flg: 0, wed_flg: 0, thu_flg: 1, fri_flg: 0, sat_flg: 0, time_target_type: 1, times: [{ equipment_id: null, equipment_name: '店舗全体', time_schedules: [{ start: '01:00', end: '02:00' }, { start: '23:00', end: '24:00' }] }] },
      { store_id: 'S', schedule_id: 2, schedule_type: 1, term_type: 1, start_date: '20261122', end_date: '20261128', sun_flg: 1, mon_flg: 0, tue_flg: 0, wed_flg: 0, thu_flg: 0, fri_flg: 0, sat_flg: 0, time_target_type: 2, times: [{ equipment_id: 3, equipment_name: '冷凍庫', time_schedules: [{ start: '03:00', end: '04:00' }] }] },
      { store_id: 'S', schedule_id: 3, schedule_type: 1, term_type: 2, start_date: '20261124', end_date: '20261124', sun_flg: 0, mon_flg: 0, tue_flg: 0, wed_flg: 0, thu_flg: 0, fri_flg: 0, sat_flg: 0, time_target_type: 1, times: [{ equipment_id: null, equipment_name: '店舗全体', time_schedules: [{ start: '10:00', end: '11:00' }] }] },
    ]);
    expect(rows[0]).toMatchObject({ no: 1, type: '定期', dateText: '2026/11/01〜（毎週）', timeLines: [{ label: null, ranges: '01:00〜02:00, 23:00〜24:00' }], weekdays: '月・木' });
    expect(rows[1]).toMatchObject({ type: '単発', dateText: '2026/11/22〜2026/11/28（週）', timeLines: [{ label: '冷凍庫', ranges: '03:00〜04:00' }], weekdays: '日' });
    expect(rows[2]).toMatchObject({ dateText: '2026/11/24', weekdays: '' });
  });
});
