import { describe, expect, it } from 'vitest';
import { decodeBthome } from '../../../../gateway/decoders/bthome';
import { explainAdvertisement } from '../../../../gateway/decoders/index';
import { advertisement, hex } from './support';

const bthome = (serviceData: string, address = 'A4:C1:38:8D:18:B2') => advertisement({ address, service: { fcd2: serviceData } });

// bthome.io/encryption example: MAC 54:48:E6:8F:80:A5, key 231d…b932, counter 0x33221100 (1122867).
const KEY = hex('231d39c1d7cc1ab1aee224cd096db932');
const SENDER = '54:48:E6:8F:80:A5';

describe('BTHome v2, plain', () => {
  it('reads the bthome.io format page example (02C409 03BF13)', () => {
    expect(decodeBthome(bthome('40 02C409 03BF13'))).toEqual({ format: 'bthome-v2', temperature: 25, humidity: 50.55, encrypted: false });
  });

  it('reads temperature and humidity (bthome-ble test_bthome_temperature_humidity)', () => {
    expect(decodeBthome(bthome('40 02ca09 03bf13'))).toMatchObject({ temperature: 25.06, humidity: 50.55 });
  });

  it('reads packet id, battery, temperature, humidity (bthome-ble test_bthome_packet_id_temperature_humidity_battery)', () => {
    expect(decodeBthome(bthome('40 0009 015d 025d09 03b718'))).toEqual({
      format: 'bthome-v2', counter: 9, counterBits: 8, battery: 93, temperature: 23.97, humidity: 63.27, encrypted: false,
    });
  });

  it('skips objects it does not use (bthome-ble test_shelly_blu_ht_display_zb)', () => {
    // packet id 46, battery 100, light 1, humidity uint8 52, temperature sint16 0.1
    expect(decodeBthome(bthome('40 002e 0164 1e01 2e34 451601'))).toMatchObject({ counter: 46, battery: 100, humidity: 52, temperature: 27.8 });
  });

  it.each([
    ['45 1101', 27.3], // bthome.io table, 0x45 sint16 × 0.1
    ['57 EA', -22], // 0x57 sint8
    ['58 EA', -7.7], // 0x58 sint8 × 0.35
  ])('reads the other temperature objects of the bthome.io table: %s', (objects, celsius) => {
    expect(decodeBthome(bthome(`40 ${objects}`))?.temperature).toBe(celsius);
  });

  it('reads the MAC-included variant (bthome-ble test_bthome_with_mac): pressure only, so no temperature', () => {
    expect(decodeBthome(bthome('42 b2188d38c1a4 04138a01'))).toEqual({ format: 'bthome-v2', encrypted: false });
  });

  it('stops at an unknown object id and keeps what came before (bthome-ble test_bthome_battery_wrong_object_id_humidity)', () => {
    expect(decodeBthome(bthome('40 015d fe5d09 03b718'))).toEqual({ format: 'bthome-v2', battery: 93, encrypted: false });
  });

  it('refuses another BTHome version (bthome-ble test_has_incorrect_version)', () => {
    expect(decodeBthome(bthome('e1 02000c04 04138a01'))).toBeNull();
    expect(explainAdvertisement(bthome('e1 02000c04 04138a01'))).toMatchObject({ ok: false, code: 'unsupported' });
  });

  it('gives nothing for a truncated object, not half a temperature', () => {
    expect(decodeBthome(bthome('40 02ca'))).toBeNull();
    expect(explainAdvertisement(bthome('40 02ca'))).toEqual({ ok: false, code: 'malformed', reason: 'bthome-v2: object 0x02 is truncated' });
  });

  it('reports the smallest sint16 (below absolute zero) as a sensor error without temperature', () => {
    expect(decodeBthome(bthome('40 0164 020080'))).toEqual({ format: 'bthome-v2', battery: 100, error: true, encrypted: false });
  });
});

describe('BTHome v2, encrypted', () => {
  it('decrypts the bthome.io/encryption example', () => {
    expect(decodeBthome(bthome('41 e445f3c9962b 33221100 6c7c4519', SENDER), { key: KEY })).toEqual({
      format: 'bthome-v2', temperature: 25.06, humidity: 50.55, counter: 1122867, counterBits: 32, encrypted: true,
    });
  });

  it('decrypts the counter 0x00112233 frame (bthome-ble test_bindkey_correct)', () => {
    const decoded = decodeBthome(bthome('41 a47266c95f73 00112233 78237214', SENDER), { key: KEY });
    expect(decoded).toMatchObject({ temperature: 25.06, humidity: 50.55, counter: 0x33221100 });
  });

  it('uses the MAC carried in the frame for the nonce (bthome-ble test_bthome_with_mac_encrypted)', () => {
    const frame = '43 a5808fe64854 f196c06ffb49 00112233 f08ecbde';
    expect(decodeBthome(bthome(frame, SENDER), { key: KEY })).toMatchObject({ temperature: 25.06, humidity: 50.55 });
  });

  it('decrypts both sides of a counter wrap (bthome-ble test_reset_encryption_counter)', () => {
    expect(decodeBthome(bthome('41 ba0db07aeef6 ffffffff 21fd4600', SENDER), { key: KEY })).toMatchObject({ temperature: 25.07, counter: 0xffffffff });
    expect(decodeBthome(bthome('41 de40b50e6766 00000000 d7cb95de', SENDER), { key: KEY })).toMatchObject({ temperature: 25.07, counter: 0 });
  });

  it('refuses a wrong key (bthome-ble test_bindkey_wrong key)', () => {
    const adv = bthome('41 e445f3c9962b 33221100 6c7c4519', SENDER);
    const key = hex('814aac74c4f17b6c1581e1ab87816b99');
    expect(decodeBthome(adv, { key })).toBeNull();
    expect(explainAdvertisement(adv, { key })).toEqual({
      ok: false, code: 'decryption-failed', reason: 'bthome-v2: decryption failed (wrong key or tampered frame)',
    });
  });

  it('refuses the right frame sent from another address: the MAC is part of the nonce', () => {
    expect(decodeBthome(bthome('41 e445f3c9962b 33221100 6c7c4519', 'A4:C1:38:8D:18:B2'), { key: KEY })).toBeNull();
  });

  it('refuses a tampered ciphertext or counter', () => {
    expect(decodeBthome(bthome('41 e445f3c9962c 33221100 6c7c4519', SENDER), { key: KEY })).toBeNull();
    expect(decodeBthome(bthome('41 e445f3c9962b 34221100 6c7c4519', SENDER), { key: KEY })).toBeNull();
  });

  it('says a key is needed when none is configured', () => {
    expect(explainAdvertisement(bthome('41 e445f3c9962b 33221100 6c7c4519', SENDER))).toMatchObject({ ok: false, code: 'no-key' });
    expect(explainAdvertisement(bthome('41 e445f3c9962b 33221100 6c7c4519', SENDER), { key: KEY.subarray(0, 12) })).toMatchObject({
      ok: false, code: 'no-key', reason: 'bthome-v2: key must be 16 bytes, got 12',
    });
  });

  it('refuses a frame too short to hold counter and MIC (bthome-ble test_too_short_encryption_advertisement)', () => {
    expect(explainAdvertisement(bthome('41 ba0db07aeef600', SENDER), { key: KEY })).toMatchObject({ ok: false, code: 'malformed' });
  });
});
