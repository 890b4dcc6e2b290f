// The level rules behind the signal icon, the battery icon and the colour band of a sensor
// circle (000 §4, §9), and how a temperature is written. Pure: the sensor views, the lists
// and the icons all read them here; the number itself is written by format.ts.
import { formatTemperature, MISSING_TEXT, TEMPERATURE_UNIT } from './format';

export type SignalLevel = 'max' | 'normal' | 'weak' | 'none';
export type BatteryLevel = 'full' | 'half' | 'low' | 'empty';

/** Missing signal in the lists (LTE of the store list, sensor list): no bars. */
export const MISSING_SIGNAL_IN_LISTS = -100;
/** Missing signal in the Bluetooth detail popup and the show page: 0, which shows full bars (000 §9). */
export const MISSING_SIGNAL_IN_DETAIL = 0;

/**
 * Signal strength in dBm to an icon level (000 §9: "above -75 max, -75 to -85 normal,
 * -85 to -90 weak, below that none"). Each shared bound belongs to the weaker level:
 *   max    rssi > -75
 *   normal -85 <= rssi <= -75
 *   weak   -90 <= rssi < -85
 *   none   rssi < -90 (and NaN)
 * A missing value counts as `missing`: MISSING_SIGNAL_IN_LISTS by default, pass
 * MISSING_SIGNAL_IN_DETAIL in the Bluetooth detail and the show page.
 */
export function signalLevel(rssi: number | null | undefined, missing: number = MISSING_SIGNAL_IN_LISTS): SignalLevel {
  const value = rssi ?? missing;
  if (value > -75) return 'max';
  if (value >= -85) return 'normal';
  if (value >= -90) return 'weak';
  return 'none';
}

/** A store gateway's LTE icon level (000 §9 levels; a missing value counts as −100: no bars). */
export const lteLevel = (rssi: number | null | undefined): SignalLevel => signalLevel(rssi, MISSING_SIGNAL_IN_LISTS);

/** Bars lit by the signal icon for each level. */
export const SIGNAL_BARS: Record<SignalLevel, number> = { max: 3, normal: 2, weak: 1, none: 0 };

export const SIGNAL_LABELS: Record<SignalLevel, string> = {
  max: '電波強度：強',
  normal: '電波強度：中',
  weak: '電波強度：弱',
  none: '電波強度：圏外',
};

/**
 * Battery percentage to an icon level (000 §9: 51 and up full, 11 to 50 half, 1 to 10 low,
 * 0 empty; missing is 0). The device reports whole percentages; a fraction falls to the
 * level whose integer range it is above (50.5 is full, 10.5 half, 0.5 low). Negative and
 * NaN values are empty.
 */
export function batteryLevel(percent: number | null | undefined): BatteryLevel {
  const value = percent ?? 0;
  if (value > 50) return 'full';
  if (value > 10) return 'half';
  if (value > 0) return 'low';
  return 'empty';
}

export const BATTERY_LABELS: Record<BatteryLevel, string> = {
  full: '電池残量：十分',
  half: '電池残量：半分',
  low: '電池残量：少',
  empty: '電池残量：なし',
};

export type ColourBand = 0 | 1 | 2 | 3;

/** Colour band bounds of 000 §9, in ℃. */
export const BAND_BOUNDS = [-30, 0, 10, 25, 60] as const;

export interface BandStyle {
  band: ColourBand;
  key: 'frozen' | 'chilled' | 'ambient' | 'heated';
  /** Legend name and range, as the sensor views show them: 冷凍 -30〜0℃. */
  name: string;
  range: string;
  nameEn: string;
  /** Lower and upper bound of the band in ℃. */
  from: number;
  to: number;
  /** Strong colour: circle ring, legend swatch, icon accents. */
  colour: string;
  /** Light colour: circle background. */
  tint: string;
}

// The one palette of the bands; the icon accents (app/components/icons/palette.ts) reuse it.
export const BANDS: readonly BandStyle[] = [
  { band: 0, key: 'frozen', name: '冷凍', nameEn: 'Frozen', range: '-30〜0℃', from: -30, to: 0, colour: '#2563eb', tint: '#eff6ff' },
  { band: 1, key: 'chilled', name: '冷蔵', nameEn: 'Chilled', range: '0〜10℃', from: 0, to: 10, colour: '#0891b2', tint: '#ecfeff' },
  { band: 2, key: 'ambient', name: '常温', nameEn: 'Ambient', range: '10〜25℃', from: 10, to: 25, colour: '#16a34a', tint: '#f0fdf4' },
  { band: 3, key: 'heated', name: '加温', nameEn: 'Heated', range: '25〜60℃', from: 25, to: 60, colour: '#ea580c', tint: '#fff7ed' },
];

/** Ring colour of a sensor without an upper limit (no band). */
export const NO_BAND_COLOUR = '#94a3b8';

/**
 * The colour band of a sensor from its upper limit (000 §4). A shared bound belongs to the
 * colder band, because the upper limit is the warmest value the furniture may reach:
 *   band 0  upper <= 0      (a freezer with upper limit 0 ℃ is still a freezer)
 *   band 1  0 < upper <= 10
 *   band 2  10 < upper <= 25
 *   band 3  upper > 25
 * Values outside -30..60 (which validation should not let through) fall into the end bands.
 * A missing or non-numeric limit has no band: null, drawn with NO_BAND_COLOUR.
 */
export function colourBand(upperLimit: number | null | undefined): ColourBand | null {
  if (upperLimit === null || upperLimit === undefined || Number.isNaN(upperLimit)) return null;
  if (upperLimit <= BAND_BOUNDS[1]) return 0;
  if (upperLimit <= BAND_BOUNDS[2]) return 1;
  if (upperLimit <= BAND_BOUNDS[3]) return 2;
  return 3;
}

export function bandStyle(band: ColourBand | null): BandStyle | null {
  return band === null ? null : BANDS[band];
}

/** A measured temperature: a value, ERROR (sensor error) or DEF (defrost, no value), or null when missing. */
export type SensorTemperature = number | 'ERROR' | 'DEF' | null;

/** Outside its limits, unless DEF, ERROR or missing (000 §4). A missing limit is not checked. */
export function isOverThreshold(temperature: SensorTemperature | undefined, lowerLimit: number | null, upperLimit: number | null): boolean {
  if (typeof temperature !== 'number') return false;
  return (lowerLimit !== null && temperature < lowerLimit) || (upperLimit !== null && temperature > upperLimit);
}

export { MISSING_TEXT, TEMPERATURE_UNIT } from './format';

export interface DisplayedTemperature {
  text: string;
  unit: string;
  tone: 'value' | 'error' | 'def' | 'missing';
}

/** How the views write a temperature: ERROR in the error style, DEF without a unit, -- when missing (000 §3). */
export function displayTemperature(temperature: SensorTemperature | undefined): DisplayedTemperature {
  if (temperature === 'ERROR') return { text: 'ERROR', unit: '', tone: 'error' };
  if (temperature === 'DEF') return { text: 'DEF', unit: '', tone: 'def' };
  if (temperature === null || temperature === undefined || Number.isNaN(temperature)) return { text: MISSING_TEXT, unit: '', tone: 'missing' };
  return { text: formatTemperature(temperature), unit: TEMPERATURE_UNIT, tone: 'value' };
}

export function displayLimit(limit: number | null | undefined): string {
  return limit === null || limit === undefined ? MISSING_TEXT : formatTemperature(limit);
}
