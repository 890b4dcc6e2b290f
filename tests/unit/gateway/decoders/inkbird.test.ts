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

  it('does not guess between two valid frames when the source cannot say which is newest (test_tps_multi_entry_dict_without_raw_bails)', () => {
    const adv = inkbird('tps', { '0898': '00000007bc0008', '08c0': '00000026710008' });
    expect(explainAdvertisement(adv)).toEqual({
      ok: false, code: 'malformed', reason: 'inkbird-ibs-th2: 2 valid Inkbird frames at once and none known to be the newest (waiting for one that changes)',
    });
    expect(decodeInkbird(inkbird('tps', { '08c0': '00000026710008' }))).toMatchObject({ temperature: 22.4, battery: 0 });
  });

  it('takes the newest of several valid frames (BlueZ keeping older entries beside the current one)', () => {
    const stale = { '0898': '00000007bc0008', '08c0': '00000026710008', '0848': '000000c66e0d06' };
    expect(decodeInkbird({ ...inkbird('tps', stale), newestManufacturerKey: '0848' })).toEqual({ format: 'inkbird-ibs-th2', temperature: 21.2, battery: 13 });
    expect(decodeInkbird({ ...inkbird('tps', stale), newestManufacturerKey: '08c0' })).toMatchObject({ temperature: 22.4 });
  });
});

// Theengs Decoder (theengs/decoder tests/BLE/test_ble.cpp test_mfgdata, manufacturerdata as one hex
// string: the 2 "company id" bytes first), OpenMQTTGateway's IBS-TH example (main/ZwebUI.cpp) and
// custom-components/ble_monitor (test/test_inkbird.py, raw HCI packets). Our key is bytes 0-1 read
// little-endian. The 9 bytes: temperature int16 LE /100, humidity uint16 LE /100, probe, CRC-16/MODBUS
// of bytes 0-4 (LE), battery %, and a last byte (08 IBS-TH / P01B, 06 IBS-TH2) that no decoder reads.
const theengs = (name: string, manufacturerdata: string) => {
  const bytes = Buffer.from(manufacturerdata, 'hex');
  const key = bytes.readUInt16LE(0).toString(16).padStart(4, '0');
  return inkbird(name, { [key]: bytes.subarray(2).toString('hex') });
};

describe('captures read by Theengs Decoder, OpenMQTTGateway and ble_monitor', () => {
  it.each([
    ['Theengs "Inkbird TH1" (external probe)', 'sps', 'f009fe1301ca893008', { format: 'inkbird-ibs-th', temperature: 25.44, humidity: 51.18, battery: 48 }],
    ['Theengs "Inkbird TH2"', 'tps', 'e300bb070093c36406', { format: 'inkbird-ibs-th2', temperature: 2.27, humidity: 19.79, battery: 100 }],
    ['Theengs "Inkbird P01B" (humidity 0xFFFF: none)', 'tps', '840affff00a6066008', { format: 'inkbird-ibs-th2', temperature: 26.92, battery: 96 }],
    ['OpenMQTTGateway IBS-TH example', 'sps', 'de071f1000b1612908', { format: 'inkbird-ibs-th', temperature: 20.14, humidity: 41.27, battery: 41 }],
    ['ble_monitor test_inkbird_IBS_TH', 'sps', '9c08f41000ba4e6408', { format: 'inkbird-ibs-th', temperature: 22.04, humidity: 43.4, battery: 100 }],
    ['ble_monitor test_inkbird_IBS_TH2_T_only', 'tps', 'ff0700000031603306', { format: 'inkbird-ibs-th2', temperature: 20.47, battery: 51 }],
    ['ble_monitor test_inkbird_IBS_TH2_T_only_2 (−18.9 °C)', 'tps', '9ef8000000bcbc6406', { format: 'inkbird-ibs-th2', temperature: -18.9, battery: 100 }],
  ])('reads %s', (_name, name, data, expected) => {
    expect(decodeInkbird(theengs(name, data))).toEqual(expected);
  });

  // Three of Theengs's vectors share the bytes "10 80 59 08" under three different readings: edited
  // from one capture (a checksum cannot stay the same), so their checksum fails and we refuse them.
  it.each([
    ['660a03150010805908', 'sps'],
    ['660a19200010805908', 'tps'],
    ['76fb00000010805908', 'tps'],
  ])('refuses the edited Theengs vector %s (checksum of another reading)', (data, name) => {
    expect(explainAdvertisement(theengs(name, data))).toMatchObject({ ok: false, code: 'malformed' });
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
