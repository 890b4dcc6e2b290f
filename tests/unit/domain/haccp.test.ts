import { describe, expect, it } from 'vitest';
import { SCHEDULE_TYPE, TERM_TYPE, TIME_TARGET_TYPE } from '~/domain/alert-stop-schedule';
import { daysOfMonth, evaluateSensorDay, HaccpSignSchema, isFutureDay, needsSignoff, shiftDay } from '~/domain/haccp';
import { fromJapan } from '~/domain/japan-time';

const at = (h: number, m = 0) => fromJapan(2026, 11, 20, h, m);
const DAY = '20261120';
const settings = [{ from: fromJapan(2026, 11, 1), to: null, lowerLimit: 0, upperLimit: 10, defrost: [{ start: '02:00', end: '02:30' }] }];

function sensor(readings: [number, number, number | null][], extra: Partial<Parameters<typeof evaluateSensorDay>[0]> = {}) {
  return { equipmentId: 7, name: '冷蔵', serialNo: 'SN', settings, readings: readings.map(([h, m, t]) => ({ at: at(h, m), temperature: t })), alerts: [], comments: [], ...extra };
}

describe('the HACCP day of a sensor', () => {
  it('passes when every reading is inside the limits', () => {
    const day = evaluateSensorDay(sensor([[1, 0, 4], [5, 0, 5]]), DAY, []);
    expect(day).toMatchObject({ result: 'pass', min: 4, max: 5, readings: 2, excursions: [] });
  });

  it('has no record without readings', () => {
    expect(evaluateSensorDay(sensor([]), DAY, []).result).toBe('no_data');
  });

  it('groups consecutive readings outside into one excursion with its peak, and a reading back inside ends it', () => {
    const day = evaluateSensorDay(sensor([[10, 0, 11], [10, 10, 13], [10, 20, null], [10, 30, 12], [10, 40, 5], [11, 0, -1]]), DAY, []);
    expect(day.result).toBe('fail');
    expect(day.excursions.map((e) => [e.kind, e.peak, e.readings, e.from.getTime() === at(10).getTime(), e.to.getTime() === at(10, 30).getTime()])).toEqual([
      ['high', 13, 3, true, true],
      ['low', -1, 1, false, false],
    ]);
  });

  it('excuses readings in a defrost range of the settings in force (defrost.ts) and in an alert-stop window (alert-stop-schedule.ts)', () => {
    const schedule = {
      scheduleType: SCHEDULE_TYPE.sequential,
      termType: TERM_TYPE.daily,
      startDate: DAY,
      endDate: DAY,
      weekdays: Array(7).fill(false),
      timeTargetType: TIME_TARGET_TYPE.sensor,
      times: [{ equipmentId: 7, start: 9 * 60, end: 10 * 60 }],
    };
    const day = evaluateSensorDay(sensor([[2, 10, 15], [9, 30, 15], [12, 0, 4]]), DAY, [schedule]);
    expect(day.result).toBe('pass');
    expect(evaluateSensorDay(sensor([[2, 10, 15], [9, 30, 15]]), DAY, []).excursions).toHaveLength(1);
  });

  it('fails on an alert open that day even without an excursion, and links comments and stop comments to the excursion', () => {
    const alert = { alertId: 'OE00000003', label: '電池残量低下', startedAt: fromJapan(2026, 11, 19, 22), recoveredAt: null, stoppedAt: null, stoppedBy: null, stopComment: null, acknowledgedAt: null, acknowledgedBy: null, correctiveAction: null, acknowledgeNote: null };
    expect(evaluateSensorDay(sensor([[1, 0, 4]], { alerts: [alert] }), DAY, []).result).toBe('fail');
    const stopped = { ...alert, alertId: 'OE00000001', startedAt: at(10, 10), recoveredAt: at(10, 40), stoppedAt: at(10, 25), stoppedBy: '山田', stopComment: '扉を閉めた' };
    const day = evaluateSensorDay(sensor([[10, 0, 12], [10, 30, 4]], { alerts: [stopped], comments: [{ at: at(10, 0), comment: '商品を移動', userName: '佐藤' }, { at: at(15), comment: '別件', userName: null }] }), DAY, []);
    expect(day.excursions[0].actions.map((a) => a.comment)).toEqual(['商品を移動', '扉を閉めた']);
    expect(day.comments).toHaveLength(2);
    // An acknowledgement's corrective action (decision 237) is a corrective action of the excursion too.
    const acknowledged = { ...stopped, stoppedAt: null, stoppedBy: null, stopComment: null, acknowledgedAt: at(10, 20), acknowledgedBy: '佐藤', correctiveAction: '霜取りを実施', acknowledgeNote: '扉のパッキン点検' };
    const ackDay = evaluateSensorDay(sensor([[10, 0, 12], [10, 30, 4]], { alerts: [acknowledged] }), DAY, []);
    expect(ackDay.excursions[0].actions).toEqual([{ at: at(10, 20), comment: '霜取りを実施（扉のパッキン点検）', userName: '佐藤' }]);
  });
});

describe('sign-off rules', () => {
  it('asks for a sign-off when never signed or when more issues appeared since', () => {
    const signoff = { userName: 'a', signedAt: at(20), note: null, issueCount: 1 };
    expect(needsSignoff([], 0)).toBe(true);
    expect(needsSignoff([signoff], 1)).toBe(false);
    expect(needsSignoff([signoff], 2)).toBe(true);
  });

  it('refuses a future day, a malformed date and a long note', () => {
    expect(isFutureDay('20261121', at(23, 59))).toBe(true);
    expect(isFutureDay('20261120', at(0))).toBe(false);
    expect(HaccpSignSchema.safeParse({ store_id: 'S1', date: '20261131' }).success).toBe(false);
    expect(HaccpSignSchema.safeParse({ store_id: 'S1', date: DAY, note: 'x'.repeat(201) }).success).toBe(false);
    expect(HaccpSignSchema.parse({ store_id: 'S1', date: DAY, note: '  ' }).note).toBeNull();
  });

  it('knows the days of a month and the neighbouring days', () => {
    expect(daysOfMonth('202602')).toHaveLength(28);
    expect(daysOfMonth('202611').at(-1)).toBe('20261130');
    expect(shiftDay('20261130', 1)).toBe('20261201');
    expect(shiftDay('20260301', -1)).toBe('20260228');
  });
});
