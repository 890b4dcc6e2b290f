// How numbers read on screen, in mails and in CSV files. One rule for every view: the sensor
// circle, the floor map, the popup, the tables, the graph tooltips, the CSVs and the mails
// write a temperature the same way.

/** What a view shows where there is no value (000 §3). */
export const MISSING_TEXT = '--';
export const TEMPERATURE_UNIT = '℃';

/**
 * A temperature to 0.1 °C, halves away from zero (-18.25 is -18.3, as 18.25 is 18.3): the
 * gateway's rounding and PostgreSQL's round(numeric, 1), which the graph uses.
 */
export function roundTenth(value: number): number {
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * 10)) / 10;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** A temperature with one decimal (rounded as `roundTenth`), never "-0.0". */
export function formatTemperature(value: number): string {
  return roundTenth(value).toFixed(1);
}

/** A temperature or limit with its unit ("-18.3℃"), or -- when there is none. */
export function formatDegrees(value: number | null | undefined): string {
  return value === null || value === undefined ? MISSING_TEXT : `${formatTemperature(value)}${TEMPERATURE_UNIT}`;
}

/** A temperature in a CSV cell: one decimal, empty when there is none. */
export function csvTemperature(value: number | null): string {
  return value === null ? '' : formatTemperature(value);
}
