// Daily equipment indicators and the drift rule (decision 298): a freezer whose recovery after
// defrost lengthens and which runs warmer each day is flagged; its healthy peers are not.
import { describe, expect, it } from 'vitest';
import { type DailyIndicators, type IndicatorKey, type IndicatorReading, dailyIndicators, driftDays, firstFlaggedDay } from '../../../app/domain/equipment-indicators';
import { fromJapan } from '../../../app/domain/japan-time';

const SETTINGS = { lowerLimit: -25, upperLimit: -15, timeConstant: 100, defrostRanges: [{ start: 120, end: 150 }] };

/** One Japan day of minute readings of a freezer: `level` between defrosts, back after defrost with time constant `tau`. */
function freezerDay(day: number, level: number, tau: number, wobble = 0.3): IndicatorReading[] {
  const readings: IndicatorReading[] = [];
  for (let minute = 0; minute < 1440; minute++) {
    let temperature = level + wobble * Math.sin(minute / 7 + level);
    if (minute >= 120 && minute < 150) temperature = -8;
    else if (minute >= 150) temperature += (-8 - level) * Math.exp(-(minute - 150) / tau);
    readings.push({ at: fromJapan(2026, 11, day, 0, minute), temperature: Math.round(temperature * 10) / 10 });
  }
  return readings;
}

const dayKey = (day: number) => `202611${String(day).padStart(2, '0')}`;

describe('dailyIndicators', () => {
  it('measures recovery, warmth above the midpoint, the night and the damped range', () => {
    const quick = dailyIndicators(freezerDay(10, -21, 8), SETTINGS);
    const slow = dailyIndicators(freezerDay(10, -21, 30), SETTINGS);
    expect(quick.recoveryMinutes).toBeGreaterThan(0);
    expect(slow.recoveryMinutes!).toBeGreaterThan(quick.recoveryMinutes! * 2);
    expect(slow.minutesAboveMidpoint!).toBeGreaterThan(quick.minutesAboveMidpoint!);
    expect(quick.nightAverage!).toBeCloseTo(-21, 0);
    expect(quick.dampedRange!).toBeGreaterThan(0);
  });

  it('leaves out what it cannot know: no limits, no defrost, error readings', () => {
    const day = freezerDay(10, -21, 8).map((r, i) => (i % 2 ? { ...r, temperature: null } : r));
    const result = dailyIndicators(day, { lowerLimit: null, upperLimit: -15, timeConstant: null, defrostRanges: [] });
    expect(result.recoveryMinutes).toBeNull();
    expect(result.minutesAboveMidpoint).toBeNull();
    expect(result.nightAverage).not.toBeNull();
    expect(dailyIndicators([], SETTINGS)).toEqual({ recoveryMinutes: null, minutesAboveMidpoint: null, nightAverage: null, dampedRange: null });
  });
});

describe('drift rule', () => {
  // 14 days: 8 healthy peers (their own small offsets) and one case weakening from day 8 on.
  const DAYS = Array.from({ length: 14 }, (_, i) => i + 1);
  const healthy = (n: number) => DAYS.map((d) => ({ day: dayKey(d), indicators: dailyIndicators(freezerDay(d, -21.5 + n * 0.1, 8 + (n % 3)), SETTINGS) }));
  const weakening = DAYS.map((d) => {
    const worse = Math.max(0, d - 7);
    return { day: dayKey(d), indicators: dailyIndicators(freezerDay(d, -21.3 + 0.35 * worse, 9 + 5 * worse), SETTINGS) };
  });
  const sensors = [...Array.from({ length: 8 }, (_, n) => healthy(n)), weakening];
  const peersOf = (self: number) => (day: string, key: IndicatorKey) =>
    sensors.filter((_, i) => i !== self).flatMap((history) => history.filter((d) => d.day === day).map((d) => d.indicators[key])).filter((v): v is number => v !== null);
  const flagged = (i: number) => firstFlaggedDay(sensors[i], driftDays(sensors[i], peersOf(i)));

  it('flags the weakening case within days of its start, while still inside its limits', () => {
    const day = flagged(8);
    expect(day).not.toBeNull();
    expect(day! <= dayKey(11)).toBe(true);
    const warmest = Math.max(...weakening.filter((d) => d.day <= day!).map((d) => (d.indicators as DailyIndicators).nightAverage!));
    expect(warmest).toBeLessThan(SETTINGS.upperLimit);
  });

  it('flags none of the healthy peers', () => {
    for (let i = 0; i < 8; i++) expect(flagged(i)).toBeNull();
  });

  it('needs consecutive days: one bad day is not a flag', () => {
    const history = healthy(0).map((d, i) => (i === 10 ? { ...d, indicators: { ...d.indicators, recoveryMinutes: 200 } } : d));
    const drifts = driftDays(history, peersOf(0));
    expect(drifts.map((d) => d.day)).toEqual([dayKey(11)]);
    expect(firstFlaggedDay(history, drifts)).toBeNull();
  });
});
