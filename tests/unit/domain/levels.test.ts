import { describe, expect, it } from 'vitest';
import { BANDS, batteryLevel, colourBand, displayLimit, displayTemperature, isOverThreshold, MISSING_SIGNAL_IN_DETAIL, MISSING_SIGNAL_IN_LISTS, signalLevel } from '~/domain/levels';

describe('signalLevel (000 §9)', () => {
  it.each([
    [-40, 'max'],
    [-74.9, 'max'],
    [-75, 'normal'],
    [-80, 'normal'],
    [-85, 'normal'],
    [-85.1, 'weak'],
    [-90, 'weak'],
    [-90.1, 'none'],
    [-120, 'none'],
  ] as const)('%s dBm is %s', (rssi, level) => {
    expect(signalLevel(rssi)).toBe(level);
  });

  it('reads a missing signal as -100 in lists (none) and 0 in the detail (max, as specified)', () => {
    expect(signalLevel(MISSING_SIGNAL_IN_LISTS)).toBe('none');
    expect(signalLevel(MISSING_SIGNAL_IN_DETAIL)).toBe('max');
  });
});

describe('batteryLevel (000 §9)', () => {
  it.each([
    [100, 'full'],
    [51, 'full'],
    [50, 'half'],
    [11, 'half'],
    [10, 'low'],
    [1, 'low'],
    [0, 'empty'],
    [null, 'empty'],
    [undefined, 'empty'],
  ] as const)('%s %% is %s', (percent, level) => {
    expect(batteryLevel(percent)).toBe(level);
  });
});

describe('colourBand by upper limit (000 §4, bounds -30, 0, 10, 25, 60)', () => {
  it.each([
    [-30, 0],
    [-18, 0],
    [0, 0],
    [0.1, 1],
    [5, 1],
    [10, 1],
    [10.1, 2],
    [25, 2],
    [25.1, 3],
    [60, 3],
  ] as const)('an upper limit of %s is band %s', (upper, band) => {
    expect(colourBand(upper)).toBe(band);
  });

  it('has no band without an upper limit, and one label and colour per band', () => {
    expect(colourBand(null)).toBeNull();
    expect(BANDS.map((band) => band.range)).toEqual(['-30〜0℃', '0〜10℃', '10〜25℃', '25〜60℃']);
    expect(new Set(BANDS.map((band) => band.colour)).size).toBe(4);
  });
});

describe('isOverThreshold (000 §4)', () => {
  it('is over strictly outside the limits; equal to a limit is inside', () => {
    expect(isOverThreshold(10.1, 0, 10)).toBe(true);
    expect(isOverThreshold(-0.1, 0, 10)).toBe(true);
    expect(isOverThreshold(10, 0, 10)).toBe(false);
    expect(isOverThreshold(0, 0, 10)).toBe(false);
  });

  it('is never over for DEF, ERROR, a missing value or a missing limit', () => {
    expect(isOverThreshold('DEF', 0, 10)).toBe(false);
    expect(isOverThreshold('ERROR', 0, 10)).toBe(false);
    expect(isOverThreshold(null, 0, 10)).toBe(false);
    expect(isOverThreshold(99, null, null)).toBe(false);
  });
});

describe('displayTemperature (000 §3)', () => {
  it('writes values with one decimal and ℃', () => {
    expect(displayTemperature(4)).toEqual({ text: '4.0', unit: '℃', tone: 'value' });
    expect(displayTemperature(-18.25)).toMatchObject({ text: '-18.3' });
    expect(displayTemperature(-0.04)).toMatchObject({ text: '0.0' });
  });

  it('shows ERROR in the error style, DEF without a unit and -- when missing', () => {
    expect(displayTemperature('ERROR')).toEqual({ text: 'ERROR', unit: '', tone: 'error' });
    expect(displayTemperature('DEF')).toEqual({ text: 'DEF', unit: '', tone: 'def' });
    expect(displayTemperature(null)).toEqual({ text: '--', unit: '', tone: 'missing' });
    expect(displayLimit(null)).toBe('--');
    expect(displayLimit(-20)).toBe('-20.0');
  });
});

describe('level edges the views can meet', () => {
  it('uses the given missing value only when the signal is missing', () => {
    expect(signalLevel(null)).toBe('none');
    expect(signalLevel(undefined)).toBe('none');
    expect(signalLevel(null, MISSING_SIGNAL_IN_DETAIL)).toBe('max');
    expect(signalLevel(-88, MISSING_SIGNAL_IN_DETAIL)).toBe('weak');
    expect(signalLevel(Number.NaN)).toBe('none');
  });

  it('puts battery fractions above an integer range into the higher level, and negatives in empty', () => {
    expect(batteryLevel(50.5)).toBe('full');
    expect(batteryLevel(10.5)).toBe('half');
    expect(batteryLevel(0.5)).toBe('low');
    expect(batteryLevel(-5)).toBe('empty');
    expect(batteryLevel(Number.NaN)).toBe('empty');
  });

  it('puts upper limits outside -30..60 into the end bands, and each band bound in the colder band', () => {
    expect(colourBand(-40)).toBe(0);
    expect(colourBand(80)).toBe(3);
    expect(colourBand(Number.NaN)).toBeNull();
    for (const band of BANDS) expect(colourBand(band.to)).toBe(band.band);
    expect(BANDS.map((band) => `${band.name} ${band.range}`)).toEqual(['冷凍 -30〜0℃', '冷蔵 0〜10℃', '常温 10〜25℃', '加温 25〜60℃']);
  });
});
