import { describe, expect, it } from 'vitest';
import { decodeGovee } from '../../../../gateway/decoders/govee';
import { explainAdvertisement } from '../../../../gateway/decoders/index';
import { advertisement } from './support';

const govee = (data: string, name?: string) => advertisement({ name, manufacturer: { ec88: data } });

// Vectors: Bluetooth-Devices/govee-ble tests/test_parser.py.
describe('Govee H5072 / H5075 (6 bytes, packed value)', () => {
  it('reads GVH5075_SERVICE_INFO, iBeacon glued to the end', () => {
    const data = '000341c26400 4c000215494e54454c4c495f524f434b535f48575075f2ff0c';
    expect(decodeGovee(govee(data, 'GVH5075_2762'))).toEqual({ format: 'govee-h5075', temperature: 21.3, humidity: 44.2, battery: 100 });
  });

  it('reads GVH5075_SERVICE_INFO_2 and, with an H5072 name, GVH5072_SERVICE_INFO', () => {
    expect(decodeGovee(govee('00034db26400', 'GVH5075_DBF8'))).toEqual({ format: 'govee-h5075', temperature: 21.6, humidity: 49.8, battery: 100 });
    expect(decodeGovee(govee('00034db26400', 'GVH5072_ABCD'))).toMatchObject({ format: 'govee-h5072', temperature: 21.6 });
  });

  it('reads GVH5075_SERVICE_INFO_OTHER_VALUES (keeps 0.1 °C, drops the humidity digits)', () => {
    expect(decodeGovee(govee('00030fc93500', 'GVH5075_2762'))).toEqual({ format: 'govee-h5075', temperature: 20, humidity: 64.9, battery: 53 });
  });

  it('reports GVH5075_SERVICE_INFO_NEGATIVE_VALUES and _OVERSIZED_VALUES as sensor errors, as govee-ble does', () => {
    expect(decodeGovee(govee('00bc00043e27', 'GVH5075_2762'))).toEqual({ format: 'govee-h5075', battery: 62, error: true });
    expect(decodeGovee(govee('004a00283b00', 'GVH5075_2762'))).toEqual({ format: 'govee-h5075', battery: 59, error: true });
  });

  it('reads a real sub-zero value: top bit set, −5.3 °C 60.2 % (govee-ble decode_temp_humid rule)', () => {
    expect(decodeGovee(govee('0080d1626400'))).toMatchObject({ temperature: -5.3, humidity: 60.2, battery: 100 });
  });

  it('reports the error bit of the battery byte as a sensor error (govee-ble decode_temp_humid_battery_error rule)', () => {
    expect(decodeGovee(govee('000341c2e400'))).toEqual({ format: 'govee-h5075', battery: 100, error: true });
  });
});

describe('Govee H5074 (7 bytes)', () => {
  it('reads GVH5074_SERVICE_INFO', () => {
    expect(decodeGovee(govee('00e609bc126402', 'Govee_H5074_5FF4'))).toEqual({ format: 'govee-h5074', temperature: 25.34, humidity: 47.96, battery: 100 });
  });
});

describe('other Govee layouts', () => {
  it('does not read the 9-byte H5051/H5071 layout (GVH5071_SERVICE_INFO) or a truncated frame', () => {
    expect(decodeGovee(govee('00210ab61218c80001', 'Govee_H5071_FD12'))).toBeNull();
    expect(explainAdvertisement(govee('000341c264'))).toEqual({ ok: false, code: 'unsupported', reason: 'govee: no supported Govee layout is 5 bytes long' });
  });
});
