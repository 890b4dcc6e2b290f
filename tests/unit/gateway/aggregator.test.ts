import { describe, expect, it } from 'vitest';
import { IntervalAggregator, median, roundTo } from '../../../gateway/aggregator';

const AA = 'AA:AA:AA:AA:AA:01';
const BB = 'AA:AA:AA:AA:AA:02';
// 2026-01-15 12:00:00 Japan time.
const T0 = Date.parse('2026-01-15T03:00:00Z');
const s = (seconds: number) => T0 + seconds * 1000;

describe('one reading per sensor per interval', () => {
  it('takes the median of the temperatures heard, labelled with the start of the interval', () => {
    const agg = new IntervalAggregator(60_000);
    for (const [t, temperature] of [[1, 4.0], [15, 9.0], [30, 4.2], [45, 4.1], [59.9, 3.9]] as const) {
      agg.add(AA, { ts: s(t), temperature, rssi: -70 });
    }
    expect(agg.advance(s(59.99)).readings).toEqual([]); // the interval is not over yet
    const { readings, closedBefore } = agg.advance(s(60));
    expect(readings).toEqual([
      { serialNo: AA, measuredAt: '20260115120000', temperature: 4.1, error: false, battery: null, rssi: -70 },
    ]);
    expect(closedBefore).toBe(s(60));
  });

  it('uses the mean of the two middle values for an even count, rounded to 0.1 °C', () => {
    const agg = new IntervalAggregator(60_000);
    for (const temperature of [-18.2, -18.3, -18.25, -10]) agg.add(AA, { ts: s(10), temperature });
    expect(agg.advance(s(61)).readings[0].temperature).toBe(-18.2); // (-18.2 + -18.25) / 2 = -18.225
    expect(median([1, 3, 2, 4])).toBe(2.5);
    expect(roundTo(2.35, 1)).toBe(2.4);
    expect(roundTo(-18.25, 1)).toBe(-18.3);
    expect(roundTo(-0.04, 1)).toBe(0);
    expect(roundTo(4.05, 1)).toBe(4.1);
  });

  it('keeps the latest battery and the median RSSI', () => {
    const agg = new IntervalAggregator(60_000);
    agg.add(AA, { ts: s(5), temperature: 5, battery: 81, rssi: -60 });
    agg.add(AA, { ts: s(20), temperature: 5, battery: 80, rssi: -90 });
    agg.add(AA, { ts: s(40), temperature: 5, rssi: -70 });
    const [r] = agg.advance(s(60)).readings;
    expect(r.battery).toBe(80);
    expect(r.rssi).toBe(-70);
  });

  it('makes one reading per sensor and per interval, in interval order', () => {
    const agg = new IntervalAggregator(60_000);
    agg.add(AA, { ts: s(10), temperature: 1 });
    agg.add(BB, { ts: s(20), temperature: 2 });
    agg.add(AA, { ts: s(70), temperature: 3 });
    agg.add(AA, { ts: s(200), temperature: 4 });
    const readings = agg.advance(s(240)).readings;
    expect(readings.map((r) => [r.serialNo, r.measuredAt, r.temperature])).toEqual([
      [AA, '20260115120000', 1],
      [BB, '20260115120000', 2],
      [AA, '20260115120100', 3],
      [AA, '20260115120300', 4],
    ]);
  });

  it('makes an error reading when the sensor reports an error and nothing valid was heard', () => {
    const agg = new IntervalAggregator(60_000);
    agg.add(AA, { ts: s(5), error: true, battery: 50 });
    agg.add(AA, { ts: s(25), error: true });
    agg.add(BB, { ts: s(5), error: true });
    agg.add(BB, { ts: s(35), temperature: 6.66 }); // one valid value wins over errors
    const readings = agg.advance(s(60)).readings;
    expect(readings).toContainEqual({ serialNo: AA, measuredAt: '20260115120000', temperature: null, error: true, battery: 50, rssi: null });
    expect(readings).toContainEqual(expect.objectContaining({ serialNo: BB, temperature: 6.7, error: false }));
  });

  it('makes no reading for an interval with nothing heard, or nothing about temperature', () => {
    const agg = new IntervalAggregator(60_000);
    agg.add(AA, { ts: s(10), temperature: 5 });
    agg.add(BB, { ts: s(10), battery: 90, rssi: -70 }); // heard, but no temperature and no error
    agg.add(AA, { ts: s(190), temperature: 6 });
    const readings = agg.advance(s(300)).readings;
    expect(readings.map((r) => r.measuredAt)).toEqual(['20260115120000', '20260115120300']);
  });

  it('waits for the grace period before closing (late advertisements of a live source)', () => {
    const agg = new IntervalAggregator(60_000);
    agg.add(AA, { ts: s(50), temperature: 5 });
    expect(agg.advance(s(61), 2000).readings).toEqual([]);
    agg.add(AA, { ts: s(59.5), temperature: 7 }); // arrived late, still counted
    agg.add(AA, { ts: s(61), temperature: 100 }); // next interval
    expect(agg.advance(s(62), 2000).readings.map((r) => r.temperature)).toEqual([6]);
  });

  it('drops advertisements of a closed interval and resumes after a checkpoint', () => {
    const agg = new IntervalAggregator(60_000, s(120));
    expect(agg.add(AA, { ts: s(119), temperature: 5 })).toBe('late');
    expect(agg.add(AA, { ts: s(120), temperature: 5 })).toBe('added');
    const closed = agg.flushAll();
    expect(closed.readings.map((r) => r.measuredAt)).toEqual(['20260115120200']);
    expect(closed.closedBefore).toBe(s(180));
    expect(agg.add(AA, { ts: s(179), temperature: 5 })).toBe('late');
  });

  it('closes what is open when the interval length changes', () => {
    const agg = new IntervalAggregator(60_000);
    agg.add(AA, { ts: s(30), temperature: 5 });
    const closed = agg.setInterval(300_000);
    expect(closed.readings).toHaveLength(1);
    // Until the next 5-minute boundary, the new grid's interval overlaps a closed one.
    expect(agg.add(AA, { ts: s(90), temperature: 5 })).toBe('late');
    expect(agg.add(AA, { ts: s(300), temperature: 5 })).toBe('added');
    expect(agg.advance(s(600)).readings.map((r) => r.measuredAt)).toEqual(['20260115120500']);
  });
});
