import { describe, expect, it } from 'vitest';
import { explainAdvertisement } from '../../../../gateway/decoders/index';
import { decodeInkbird } from '../../../../gateway/decoders/inkbird';
import { advertisement } from './support';

// Vectors: Bluetooth-Devices/inkbird-ble tests/test_parser.py. The manufacturer-data key there is the
// company id in decimal (2044 = 0x07FC); ours is 4 hex digits.
const inkbird = (name: string, manufacturer: Record<string, string>) => advertisement({ name, manufacturer });

describe('Inkbird IBS-TH ("sps")', () => {
  it('reads test_sps (20.44 °C, 48.07 %, 86 %)', () => {
    expect(decodeInkbird(inkbird('sps', { '07fc': 'c71200c83d5606' }))).toEqual({
      format: 'inkbird-ibs-th', temperature: 20.44, humidity: 48.07, battery: 86,
    });
  });

  it('reads test_sps_variant2 and test_sps_th2_dupe_updates', () => {
    expect(decodeInkbird(inkbird('sps', { '093b': 'd01300ce906406' }))).toMatchObject({ temperature: 23.63, humidity: 50.72, battery: 100 });
    expect(decodeInkbird(inkbird('sps', { '08c8': '84140088996406' }))).toMatchObject({ temperature: 22.48, humidity: 52.52 });
  });

  it('gives nothing for test_unknown_sps, whose entries fail the checksum', () => {
    expect(decodeInkbird(inkbird('sps', { '080f': 'c0120170086406', '0823': '120177086406' }))).toBeNull();
  });

  it('refuses a frame whose checksum does not match (one temperature bit flipped)', () => {
    expect(explainAdvertisement(inkbird('sps', { '07fd': 'c71200c83d5606' }))).toEqual({
      ok: false, code: 'malformed', reason: 'inkbird-ibs-th: no manufacturer data with a valid Inkbird checksum',
    });
  });
});

describe('Inkbird IBS-TH2 / IBS-P01B ("tps")', () => {
  it('reads test_unknown_tps: no humidity sensor, battery 13 %', () => {
    expect(decodeInkbird(inkbird('tps', { '0848': '000000c66e0d06' }))).toEqual({ format: 'inkbird-ibs-th2', temperature: 21.2, battery: 13 });
  });

  it('does not guess between two valid frames (test_tps_multi_entry_dict_without_raw_bails)', () => {
    const adv = inkbird('tps', { '0898': '00000007bc0008', '08c0': '00000026710008' });
    expect(explainAdvertisement(adv)).toEqual({
      ok: false, code: 'malformed', reason: 'inkbird-ibs-th2: 2 valid Inkbird frames at once (stale BlueZ data?)',
    });
    expect(decodeInkbird(inkbird('tps', { '08c0': '00000026710008' }))).toMatchObject({ temperature: 22.4, battery: 0 });
  });
});

describe('recognition', () => {
  it('ignores a device without an Inkbird local name', () => {
    expect(decodeInkbird(inkbird('sensor', { '07fc': 'c71200c83d5606' }))).toBeNull();
    expect(explainAdvertisement(inkbird('sensor', { '07fc': 'c71200c83d5606' }))).toEqual({
      ok: false, code: 'unknown-format', reason: 'no supported format in manufacturer data 0x07fc, service data none, name "sensor"',
    });
  });
});
