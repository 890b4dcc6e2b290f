import { describe, expect, it } from 'vitest';
import { DEFAULT_TREND_RULE, trendWarning } from '../../../app/domain/trend-warning';

// The trend warning (issue 32, part 4): rising faster than the rate for N readings, inside the limits.
const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 0, minute));
const series = (temperatures: (number | null)[]) => temperatures.map((temperature, i) => ({ at: at(i), temperature }));
const LIMITS = { lowerLimit: -25, upperLimit: -15 };

describe('trendWarning', () => {
  it('warns when every step of the last readings rises at the rate, still inside the limits', () => {
    const warning = trendWarning(series([-21, -21, -20.9, -20.8, -20.7, -20.6]), { ratePerHour: 3, readings: 5 }, LIMITS);
    expect(warning).not.toBeNull();
    expect(warning!.since).toEqual(at(1));
    expect(warning!.ratePerHour).toBeCloseTo(6, 1) // 0.4 ℃ in 4 minutes;
  });

  it('stays quiet on a slow rise, a pause in the rise, an error reading, or too few readings', () => {
    expect(trendWarning(series([-21, -21, -20.99, -20.98, -20.97, -20.96]), DEFAULT_TREND_RULE, LIMITS)).toBeNull();
    expect(trendWarning(series([-21, -20.9, -20.8, -20.8, -20.7, -20.6]), DEFAULT_TREND_RULE, LIMITS)).toBeNull();
    expect(trendWarning(series([-21, -20.9, null, -20.7, -20.6]), DEFAULT_TREND_RULE, LIMITS)).toBeNull();
    expect(trendWarning(series([-20.9, -20.8, -20.7]), DEFAULT_TREND_RULE, LIMITS)).toBeNull();
  });

  it('leaves a reading beyond the limits to the alert engine', () => {
    expect(trendWarning(series([-15.4, -15.3, -15.2, -15.1, -14.9]), DEFAULT_TREND_RULE, LIMITS)).toBeNull();
    expect(trendWarning(series([-15.5, -15.4, -15.3, -15.2, -15.1]), DEFAULT_TREND_RULE, LIMITS)).not.toBeNull();
  });
});
