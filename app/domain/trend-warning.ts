// The trend warning (issue 32, part 4): a sensor whose temperature rises faster than a chosen rate
// over N readings while still inside its limits, often the first sign of a door left open or a
// failed fan. A warning, not an alarm: it is no state of the alert engine and sends no mail.

export interface TrendReading {
  at: Date;
  temperature: number | null; // null on an error reading
}

export interface TrendRule {
  /** °C per hour the temperature must rise at, step by step. */
  ratePerHour: number;
  /** Consecutive rising steps (readings − 1) needed. */
  readings: number;
}

export const DEFAULT_TREND_RULE: TrendRule = { ratePerHour: 3, readings: 5 };

export interface TrendWarning {
  since: Date;
  from: number;
  to: number;
  ratePerHour: number; // the average over the run
}

/**
 * The warning of the latest readings (oldest first), or null: the last `rule.readings` readings
 * are valid, each step rises at least at the rate, and the latest is still inside the limits
 * (outside them the alert engine speaks instead).
 */
export function trendWarning(readings: readonly TrendReading[], rule: TrendRule, limits: { lowerLimit: number | null; upperLimit: number | null }): TrendWarning | null {
  if (rule.readings < 2 || readings.length < rule.readings) return null;
  const run = readings.slice(-rule.readings);
  if (run.some((r) => r.temperature === null)) return null;
  const values = run.map((r) => r.temperature as number);
  for (let i = 1; i < run.length; i++) {
    const hours = (run[i].at.getTime() - run[i - 1].at.getTime()) / 3_600_000;
    if (hours <= 0 || (values[i] - values[i - 1]) / hours < rule.ratePerHour) return null;
  }
  const last = values.at(-1) as number;
  if ((limits.upperLimit !== null && last > limits.upperLimit) || (limits.lowerLimit !== null && last < limits.lowerLimit)) return null;
  const hours = (run.at(-1)!.at.getTime() - run[0].at.getTime()) / 3_600_000;
  return { since: run[0].at, from: values[0], to: last, ratePerHour: Math.round(((last - values[0]) / hours) * 10) / 10 };
}
