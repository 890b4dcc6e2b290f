import { describe, expect, it } from 'vitest';
import { csvTemperature, formatDegrees, formatTemperature, roundTenth } from '~/domain/format';
import { displayTemperature } from '~/domain/levels';
import { markerView } from '~/domain/diagram';

describe('formatTemperature: one decimal, halves away from zero', () => {
  it.each([
    [-18.25, '-18.3'],
    [18.25, '18.3'],
    [-0.04, '0.0'],
    [0.05, '0.1'],
    [-0.05, '-0.1'],
    [4, '4.0'],
  ])('%d reads %s', (value, text) => {
    expect(formatTemperature(value)).toBe(text);
  });

  it('rounds numbers the way PostgreSQL round(numeric, 1) does for the graph', () => {
    expect(roundTenth(-18.25)).toBe(-18.3);
    expect(roundTenth(18.25)).toBe(18.3);
    expect(Object.is(roundTenth(-0.04), 0)).toBe(true);
  });

  it('adds the unit, or -- when there is no value', () => {
    expect(formatDegrees(-18.25)).toBe('-18.3℃');
    expect(formatDegrees(null)).toBe('--');
    expect(csvTemperature(-18.25)).toBe('-18.3');
    expect(csvTemperature(null)).toBe('');
  });

  it('the sensor circle and the floor map write the same text (they used to differ at -18.25)', () => {
    const reading = { temperature: -18.25, lowerLimit: null, upperLimit: null, status: 0, alertCodes: [] };
    expect(markerView(reading).text).toBe('-18.3');
    expect(displayTemperature(-18.25).text).toBe('-18.3');
  });
});
