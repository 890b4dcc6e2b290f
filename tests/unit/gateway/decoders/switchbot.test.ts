import { describe, expect, it } from 'vitest';
import { explainAdvertisement } from '../../../../gateway/decoders/index';
import { decodeSwitchbot } from '../../../../gateway/decoders/switchbot';
import { advertisement } from './support';

const switchbot = (service?: string, manufacturer?: string) =>
  advertisement({ service: service ? { fd3d: service } : {}, manufacturer: manufacturer ? { '0969': manufacturer } : {} });

// Vectors: sblibs/pySwitchbot tests/test_adv_parser.py.
describe('SwitchBot Meter family', () => {
  it('reads test_wosensor_active (Meter, service data only)', () => {
    expect(decodeSwitchbot(switchbot('5400e4069835'))).toEqual({ format: 'switchbot-meter', temperature: 24.6, humidity: 53, battery: 100 });
  });

  it('reads test_wosensor_passive_and_active (Meter, both)', () => {
    expect(decodeSwitchbot(switchbot('5400e4069835', 'd7c17d5deb43de03069835'))).toEqual({
      format: 'switchbot-meter', temperature: 24.6, humidity: 53, battery: 100,
    });
  });

  it('reads test_woiosensor_passive_and_active (Outdoor Meter: temperature in manufacturer data only)', () => {
    expect(decodeSwitchbot(switchbot('7700e4', 'aabbccddeeffe00f06983500'))).toEqual({
      format: 'switchbot-meter', temperature: 24.6, humidity: 53, battery: 100,
    });
  });

  it('reads test_meter_pro_active (Meter Pro)', () => {
    expect(decodeSwitchbot(switchbot('340064', 'b0e9fe52dd84066408972c0005'))).toMatchObject({ temperature: 23.8, humidity: 44, battery: 100 });
  });

  it('reads a sub-zero value: sign bit clear, −5.3 °C (pySwitchbot decode_temp_humidity rule)', () => {
    expect(decodeSwitchbot(switchbot('5400e4030535'))).toMatchObject({ temperature: -5.3, humidity: 53 });
  });

  it('gives nothing for the all-zero frame of test_wosensor_active_zero_data', () => {
    expect(decodeSwitchbot(switchbot('540000000000'))).toBeNull();
  });

  it('does not guess the device type from manufacturer data alone (test_wosensor_passive_only needs the model)', () => {
    expect(explainAdvertisement(switchbot(undefined, 'd7c17d5deb43de03069835'))).toMatchObject({ ok: false, code: 'unsupported' });
  });

  // Passive scan: pySwitchbot's callers pass the model; ours say the address is a registered sensor.
  it('reads test_wosensor_passive_only (Meter, manufacturer data only): battery unknown', () => {
    expect(decodeSwitchbot(switchbot(undefined, 'd7c17d5deb43de03069835'), { registeredSensor: true })).toEqual({
      format: 'switchbot-meter', temperature: 24.6, humidity: 53,
    });
  });

  it('reads test_woiosensor_passive_only (Outdoor Meter, manufacturer data only): battery unknown', () => {
    expect(decodeSwitchbot(switchbot(undefined, 'aabbccddeeffe00f06983500'), { registeredSensor: true })).toEqual({
      format: 'switchbot-meter', temperature: 24.6, humidity: 53,
    });
  });

  it('reads the Meter Pro passive frame of test_meter_pro_active (manufacturer data only)', () => {
    expect(decodeSwitchbot(switchbot(undefined, 'b0e9fe52dd84066408972c0005'), { registeredSensor: true })).toEqual({
      format: 'switchbot-meter', temperature: 23.8, humidity: 44,
    });
  });

  it('does not read other SwitchBot devices passively (lock and motion sensor of test_parsing_lock_passive / test_motion_sensor_clear_passive: 10 bytes)', () => {
    expect(explainAdvertisement(switchbot(undefined, 'f1099f451a5d07830020'), { registeredSensor: true })).toMatchObject({ ok: false, code: 'unsupported' });
    expect(explainAdvertisement(switchbot(undefined, 'c0219ae8bc496a1c0066'), { registeredSensor: true })).toMatchObject({ ok: false, code: 'unsupported' });
  });

  it('refuses a passive frame with an impossible value, and the all-zero frame', () => {
    expect(explainAdvertisement(switchbot(undefined, 'd7c17d5deb43de030f9835'), { registeredSensor: true })).toMatchObject({ ok: false, code: 'malformed' });
    expect(explainAdvertisement(switchbot(undefined, 'd7c17d5deb43de0306987f'), { registeredSensor: true })).toMatchObject({ ok: false, code: 'malformed' });
    expect(explainAdvertisement(switchbot(undefined, 'd7c17d5deb43de03000000'), { registeredSensor: true })).toMatchObject({ ok: false, code: 'malformed' });
  });

  it('does not read other SwitchBot devices (test_wosensor_passive_and_active, Color Bulb) nor a truncated meter frame', () => {
    expect(explainAdvertisement(switchbot('750064', '84f703b4cb7a03e4210000'))).toEqual({
      ok: false, code: 'unsupported', reason: "switchbot: device type 'u' is not a meter",
    });
    expect(explainAdvertisement(switchbot('5400e40698'))).toMatchObject({ ok: false, code: 'malformed' });
  });
});
