import { describe, expect, it } from 'vitest';
import { explainAdvertisement } from '../../../../gateway/decoders/index';
import { decodePvvx } from '../../../../gateway/decoders/pvvx';
import { advertisement, hex } from './support';

// The pvvx python-interface examples use this MAC and an all-0xAA bind key.
const ADDRESS = 'A4:C1:38:AA:BB:CC';
const KEY = hex('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
const env = (data: string, address = ADDRESS) => advertisement({ address, service: { '181a': data } });

describe('pvvx custom format (15 bytes)', () => {
  it('reads the python-interface README "custom frame" example', () => {
    expect(decodePvvx(env('5cc8ee38c1a4 b008 c314 ca0a 50 14 05', 'A4:C1:38:EE:C8:5C'))).toEqual({
      format: 'pvvx', temperature: 22.24, humidity: 53.15, batteryMv: 2762, battery: 80, counter: 20, counterBits: 8,
    });
  });

  it('reads the python-interface README build example (19.11 °C, 50 %)', () => {
    expect(decodePvvx(env('ccbbaa38c1a4 7707 8813 ca0a 50 01 07'))).toMatchObject({ temperature: 19.11, humidity: 50, battery: 80, counter: 1 });
  });

  it('reads the atc_mi_format_test "custom" sample', () => {
    expect(decodePvvx(env('ccbbaa38c1a4 6c07 fa13 d60a 52 09 0f'))).toMatchObject({ temperature: 19, humidity: 51.14, batteryMv: 2774, battery: 82 });
  });
});

describe('atc1441 format (13 bytes)', () => {
  it('reads the atc_mi_format_test "atc1441" sample', () => {
    expect(decodePvvx(env('a4c138aabbcc 00ce 33 43 0a6e c3'))).toEqual({
      format: 'atc1441', temperature: 20.6, humidity: 51, battery: 67, batteryMv: 2670, counter: 195, counterBits: 8,
    });
  });
});

describe('pvvx encrypted formats', () => {
  it('decrypts the python-interface README custom_enc example (battery 93)', () => {
    expect(decodePvvx(env('bd 9dc54efab500 0e8bb807'), { key: KEY })).toEqual({
      format: 'pvvx-encrypted', temperature: 19.11, humidity: 50, battery: 93, counter: 0xbd, counterBits: 8, encrypted: true,
    });
  });

  it('decrypts the README build output and the atc_mi_format_test custom_enc sample', () => {
    expect(decodePvvx(env('bd 9dc54efab808 566be87f'), { key: KEY })).toMatchObject({ temperature: 19.11, humidity: 50, battery: 80 });
    expect(decodePvvx(env('bd 86c53ffab900 c1515859'), { key: KEY })).toMatchObject({ temperature: 19, humidity: 51.13, battery: 81 });
  });

  it('decrypts the atc_mi_format_test atc1441_enc sample (half-degree steps)', () => {
    expect(decodePvvx(env('bd e9b75d b856f303'), { key: KEY })).toEqual({
      format: 'atc1441-encrypted', temperature: 19, humidity: 25, battery: 86, counter: 0xbd, counterBits: 8, encrypted: true,
    });
  });

  it('refuses a wrong key, another address and a missing key', () => {
    expect(explainAdvertisement(env('bd 9dc54efab500 0e8bb807'), { key: hex('BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB') })).toMatchObject({
      ok: false, code: 'decryption-failed',
    });
    expect(decodePvvx(env('bd 9dc54efab500 0e8bb807', 'A4:C1:38:AA:BB:CD'), { key: KEY })).toBeNull();
    expect(explainAdvertisement(env('bd 9dc54efab500 0e8bb807'))).toEqual({
      ok: false, code: 'no-key', reason: 'pvvx-encrypted: encrypted frame and no key configured for this sensor',
    });
  });
});

describe('other 0x181A lengths', () => {
  it('says no known layout has that length (a truncated custom frame)', () => {
    expect(decodePvvx(env('ccbbaa38c1a4 7707 8813 ca0a 50 01'))).toBeNull();
    expect(explainAdvertisement(env('ccbbaa38c1a4 7707 8813 ca0a 50 01'))).toEqual({
      ok: false, code: 'unsupported', reason: 'pvvx: no known 0x181A layout is 14 bytes long',
    });
  });
});
