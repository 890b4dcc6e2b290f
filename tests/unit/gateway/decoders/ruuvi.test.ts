import { describe, expect, it } from 'vitest';
import { explainAdvertisement } from '../../../../gateway/decoders/index';
import { decodeRuuvi } from '../../../../gateway/decoders/ruuvi';
import { advertisement } from './support';

const ruuvi = (data: string) => advertisement({ address: 'CB:B8:33:4C:88:4F', manufacturer: { '0499': data } });

// Vectors: ruuvi-sensor-protocols dataformat_05.md, "Test vectors" (from ruuvitag-sensor).
describe('Ruuvi data format 5 (RAWv2)', () => {
  it('reads the "valid data" case', () => {
    expect(decodeRuuvi(ruuvi('0512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F'))).toEqual({
      format: 'ruuvi-5', temperature: 24.3, humidity: 53.49, batteryMv: 2977, counter: 205, counterBits: 16,
    });
  });

  it('reads the "maximum values" case', () => {
    expect(decodeRuuvi(ruuvi('057FFFFFFEFFFE7FFF7FFF7FFFFFDEFEFFFECBB8334C884F'))).toEqual({
      format: 'ruuvi-5', temperature: 163.835, humidity: 163.835, batteryMv: 3646, counter: 65534, counterBits: 16,
    });
  });

  it('reads the "minimum values" case', () => {
    expect(decodeRuuvi(ruuvi('058001000000008001800180010000000000CBB8334C884F'))).toEqual({
      format: 'ruuvi-5', temperature: -163.835, humidity: 0, batteryMv: 1600, counter: 0, counterBits: 16,
    });
  });

  it('reads the "invalid values" case as a sensor error with no made-up value', () => {
    expect(decodeRuuvi(ruuvi('058000FFFFFFFF800080008000FFFFFFFFFFFFFFFFFFFFFF'))).toEqual({ format: 'ruuvi-5', error: true });
  });

  it.each([
    ['01C3', 2.255],
    ['FE3D', -2.255],
    ['0000', 0],
  ])('reads the temperature field examples of the spec: 0x%s', (field, celsius) => {
    expect(decodeRuuvi(ruuvi(`05${field}5394C37C0004FFFC040CAC364200CDCBB8334C884F`))?.temperature).toBe(celsius);
  });

  it('gives nothing for a truncated frame', () => {
    expect(decodeRuuvi(ruuvi('0512FC5394C37C0004FFFC040CAC364200CDCBB8334C88'))).toBeNull();
    expect(explainAdvertisement(ruuvi('0512FC'))).toEqual({ ok: false, code: 'malformed', reason: 'ruuvi-5: expected 24 bytes, got 3' });
  });
});

// Vectors: ruuvi-sensor-protocols dataformat_03.md, "Test vectors".
describe('Ruuvi data format 3 (RAWv1)', () => {
  it('reads the "valid data" case', () => {
    expect(decodeRuuvi(ruuvi('03291A1ECE1EFC18F94202CA0B53'))).toEqual({ format: 'ruuvi-3', temperature: 26.3, humidity: 20.5, batteryMv: 2899 });
  });

  it('reads the "maximum values" case', () => {
    expect(decodeRuuvi(ruuvi('03FF7F63FFFF7FFF7FFF7FFFFFFF'))).toEqual({ format: 'ruuvi-3', temperature: 127.99, humidity: 127.5, batteryMv: 65535 });
  });

  it('reads the "minimum values" case', () => {
    expect(decodeRuuvi(ruuvi('0300FF6300008001800180010000'))).toEqual({ format: 'ruuvi-3', temperature: -127.99, humidity: 0, batteryMv: 0 });
  });

  it.each([
    ['8145', -1.69],
    ['0145', 1.69],
    ['0000', 0],
  ])('reads the sign-and-magnitude temperature examples of the spec: 0x%s', (field, celsius) => {
    expect(decodeRuuvi(ruuvi(`0329${field}CE1EFC18F94202CA0B53`))?.temperature).toBe(celsius);
  });

  it('refuses a fraction above 99 and a wrong length', () => {
    expect(decodeRuuvi(ruuvi('03291A64CE1EFC18F94202CA0B53'))).toBeNull();
    expect(decodeRuuvi(ruuvi('03291A1ECE1EFC18F94202CA0B'))).toBeNull();
  });
});

describe('Ruuvi, other formats', () => {
  it('says which data format it does not read', () => {
    expect(explainAdvertisement(ruuvi('08AABBCC'))).toEqual({ ok: false, code: 'unsupported', reason: 'ruuvi: data format 8 is not read' });
  });
});
