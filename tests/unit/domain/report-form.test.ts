import { describe, expect, it } from 'vitest';
import { fromJapan, toCompactDateTime } from '~/domain/japan-time';
import { closedPeriods, defaultFormValues, formValuesOf, intervalModeOf, payloadOf, periodOf, ReportSaveSchema, uniqueTimes } from '~/domain/report-form';
import { tableTimes } from '~/domain/report-rows';

const stamp = (at: Date) => toCompactDateTime(at);

describe('report periods (001 §4)', () => {
  it('month is the 1st to the last day, week Sunday to Saturday, day the day; 00:00 to 23:50 Japan time', () => {
    expect([periodOf(1, fromJapan(2028, 2, 14))].map((p) => [stamp(p.from), stamp(p.to)])).toEqual([['20280201000000', '20280229235000']]);
    const week = periodOf(2, fromJapan(2026, 11, 4, 15));
    expect([stamp(week.from), stamp(week.to)]).toEqual(['20261101000000', '20261107235000']);
    const day = periodOf(3, fromJapan(2026, 12, 31, 23, 59));
    expect([stamp(day.from), stamp(day.to)]).toEqual(['20261231000000', '20261231235000']);
  });

  it('lists the periods closed since a moment, oldest first', () => {
    const months = closedPeriods(1, fromJapan(2026, 8, 15), fromJapan(2026, 11, 1, 0, 1));
    expect(months.map((p) => stamp(p.from))).toEqual(['20260801000000', '20260901000000', '20261001000000']);
    expect(closedPeriods(3, fromJapan(2026, 11, 3, 12), fromJapan(2026, 11, 3, 23, 59))).toEqual([]);
  });
});

describe('data interval', () => {
  it('chooses the edit mode from the data: given times, else every 10 minutes at 10, else a given interval', () => {
    expect(intervalModeOf(null, ['08:00'])).toBe('times');
    expect(intervalModeOf(10, [])).toBe('every10');
    expect(intervalModeOf(60, [])).toBe('interval');
  });

  it('drops duplicate times and orders them', () => {
    expect(uniqueTimes(['17:00', '08:00', ' 08:00 ', ''])).toEqual(['08:00', '17:00']);
  });

  it('lays out the table times: every N minutes to 23:50, or the given times of each day', () => {
    const day = periodOf(3, fromJapan(2026, 11, 2));
    expect(tableTimes(day, { kind: 'every', minutes: 10 })).toHaveLength(144);
    expect(tableTimes(day, { kind: 'every', minutes: 720 }).map(stamp)).toEqual(['20261102000000', '20261102120000']);
    const week = periodOf(2, fromJapan(2026, 11, 2));
    expect(tableTimes(week, { kind: 'times', times: ['08:00', '17:00'] })).toHaveLength(14);
  });
});

describe('the form and the payload', () => {
  it('defaults (001 §4): sequential on create, regular on edit, month, every 10 minutes, PDF, mail on to the creating user with the attachment', () => {
    const values = defaultFormValues(fromJapan(2026, 11, 24, 9), false, 'me@example.com');
    expect(values).toMatchObject({ regular_report: '0', report_type: '1', interval_mode: 'every10', output_format: '1', mail_flg: '1', mail_addresses: 'me@example.com', attachment_flg: true, start_date: '2026-11-24' });
    expect(defaultFormValues(new Date(), true).regular_report).toBe('1');
  });

  it('starts with mail off for a user without an address, so a first save needs none (decision 272)', () => {
    const values = { ...defaultFormValues(fromJapan(2026, 11, 24, 9), false, null), file_name: '温度', equipment_ids: [3] };
    expect(values).toMatchObject({ mail_flg: '0', mail_addresses: '' });
    expect(ReportSaveSchema.safeParse(payloadOf(values, 'S1', null)).success).toBe(true);
    // On main the default (mail on, no address) failed its first save.
    expect(ReportSaveSchema.safeParse(payloadOf({ ...values, mail_flg: '1' }, 'S1', null)).success).toBe(false);
  });

  it('maps the form to the payload the API takes; the attachment only for month with mail on', () => {
    const values = { ...defaultFormValues(fromJapan(2026, 11, 24), false, 'a@example.com'), file_name: '温度', equipment_ids: [3], report_type: '3' as const };
    const parsed = ReportSaveSchema.parse(payloadOf(values, 'S1', null));
    expect(parsed).toMatchObject({ data_interval: 10, attachment_flg: 0, appendix: 1, mail_addresses: ['a@example.com'], setting_name: '随時レポート' });
    expect(stamp(parsed.start_time)).toBe('20261124000000');
    expect(stamp(parsed.end_time)).toBe('20261124235000');
  });

  it('keeps the appendix unless it is turned off, and an API payload without the field has it', () => {
    const values = { ...defaultFormValues(fromJapan(2026, 11, 24), false), file_name: '温度', equipment_ids: [3] };
    expect(ReportSaveSchema.parse(payloadOf({ ...values, appendix: false }, 'S1', null)).appendix).toBe(0);
    const { appendix: _omitted, ...older } = payloadOf(values, 'S1', null);
    expect(ReportSaveSchema.parse(older).appendix).toBe(1);
    expect(ReportSaveSchema.safeParse({ ...older, appendix: 2 }).success).toBe(false);
  });

  it('prefills the edit form from a setting', () => {
    const values = formValuesOf({
      settingName: '日報', fileName: 'f', reportType: 3, startTime: fromJapan(2026, 11, 2), endTime: fromJapan(2026, 11, 2, 23, 50), dataInterval: null, manualTimes: ['08:00', '17:00'],
      outputFormat: 2, option1: 1, option2: 0, mailFlg: 0, mailAddresses: [], attachmentFlg: 0, appendix: 0, equipmentIds: [1, 2],
    });
    expect(values).toMatchObject({ interval_mode: 'times', manual_times: '08:00, 17:00', output_format: '2', option1: true, mail_flg: '0', appendix: false, equipment_ids: [1, 2] });
  });
});
