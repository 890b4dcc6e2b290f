import { describe, expect, it } from 'vitest';
import { explainAdvertisement } from '../../../../gateway/decoders/index';
import { decodeMiBeacon } from '../../../../gateway/decoders/mibeacon';
import { advertisement, hex } from './support';

const mi = (data: string, address: string) => advertisement({ address, service: { fe95: data } });

describe('MiBeacon, plain', () => {
  it('reads LYWSDCGQ, MiBeacon v2 (xiaomi-ble test_Xiaomi_LYWSDCGQ)', () => {
    expect(decodeMiBeacon(mi('5020aa01da219335342d580d1004fe004802', '58:2D:34:35:93:21'))).toEqual({
      format: 'mibeacon', temperature: 25.4, humidity: 58.4, counter: 0xda, counterBits: 8, encrypted: false,
    });
  });

  it('reads LYWSD03MMC, MiBeacon v3 (xiaomi-ble test_Xiaomi_LYWSD03MMC)', () => {
    expect(decodeMiBeacon(mi('50305b05034c94b438c1a40d10041001ea01', 'A4:C1:38:B4:94:4C'))).toMatchObject({ temperature: 27.2, humidity: 49 });
  });

  it('reads the pvvx "mi_like" samples: temperature+humidity, then battery only', () => {
    expect(decodeMiBeacon(mi('50585b051bccbbaa38c1a40d1004be000002', 'A4:C1:38:AA:BB:CC'))).toMatchObject({ temperature: 19, humidity: 51.2 });
    expect(decodeMiBeacon(mi('50585b0522ccbbaa38c1a40a10014f', 'A4:C1:38:AA:BB:CC'))).toEqual({
      format: 'mibeacon', battery: 79, counter: 0x22, counterBits: 8, encrypted: false,
    });
  });

  it('refuses a frame whose MAC is not the sender address', () => {
    expect(explainAdvertisement(mi('50305b05034c94b438c1a40d10041001ea01', 'A4:C1:38:B4:94:4D'))).toEqual({
      ok: false, code: 'malformed', reason: 'mibeacon: MAC in the frame is not the sender address',
    });
  });

  it('gives nothing for a truncated object', () => {
    expect(explainAdvertisement(mi('50305b05034c94b438c1a40d10041001ea', 'A4:C1:38:B4:94:4C'))).toMatchObject({ ok: false, code: 'malformed' });
    expect(decodeMiBeacon(mi('5030', 'A4:C1:38:B4:94:4C'))).toBeNull();
  });

  it('says a pairing beacon carries no object (xiaomi-ble test_blank_advertisements_then_encrypted, first frame)', () => {
    expect(explainAdvertisement(mi('30585b0502483cd438c1a408', 'A4:C1:38:D4:3C:48'))).toMatchObject({ ok: false, code: 'malformed' });
  });
});

describe('MiBeacon v4/v5, encrypted', () => {
  it('decrypts LYWSD03MMC humidity (xiaomi-ble test_Xiaomi_LYWSD03MMC_encrypted)', () => {
    const adv = mi('58585b0550f4830238c1a495ef58763c26000097e2abb5', 'A4:C1:38:02:83:F4');
    expect(decodeMiBeacon(adv, { key: hex('e9ea895fac7cca6d30532432a516f3a8') })).toEqual({
      format: 'mibeacon', humidity: 46.7, counter: 0x26 * 256 + 0x50, counterBits: 32, encrypted: true,
    });
  });

  it('decrypts CGDK2 temperature (xiaomi-ble test_Xiaomi_CGDK2)', () => {
    const adv = mi('58586f0607892012342d585f176dd54f0200002fa453fa', '58:2D:34:12:20:89');
    expect(decodeMiBeacon(adv, { key: hex('a3bfe9853dd85a620debe3620caaa351') })).toMatchObject({ temperature: 22.6 });
  });

  it('decrypts CGG1 humidity (xiaomi-ble test_Xiaomi_CGG1)', () => {
    const adv = mi('5858480b685f12342d585a0b1841e2aa000e00a4964fb5', '5A:58:2D:34:12:5F');
    expect(decodeMiBeacon(adv, { key: hex('814aac74c4f17b6c1581e1ab87816b99') })).toMatchObject({ humidity: 59.6 });
  });

  it('decrypts the pvvx "mi_like_enc" samples (temperature, humidity, battery)', () => {
    const key = hex('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    const address = 'A4:C1:38:AA:BB:CC';
    expect(decodeMiBeacon(mi('58585b05f4ccbbaa38c1a413df92a81cb30000acc46fda', address), { key })).toMatchObject({ temperature: 19 });
    expect(decodeMiBeacon(mi('58585b0595ccbbaa38c1a4d525d974ec1400009be1de3c', address), { key })).toMatchObject({ humidity: 45 });
    expect(decodeMiBeacon(mi('58585b05edccbbaa38c1a4de6df074b30000f2ef0e53', address), { key })).toMatchObject({ battery: 67 });
  });

  it('decrypts objects it does not read into a result without temperature (xiaomi-ble LYWSD02MMC_v2, float object 0x4C01)', () => {
    const adv = mi('4858422529202d8c7a76b756a82a0078b8224e', 'A4:C1:38:0E:FD:78');
    const decoded = decodeMiBeacon(adv, { key: hex('19b1c678ab0a8bc3dc77765f059188d4') });
    expect(decoded).toMatchObject({ format: 'mibeacon', encrypted: true });
    expect(decoded?.temperature).toBeUndefined();
  });

  it('refuses a wrong key (xiaomi-ble test_bindkey_wrong)', () => {
    const adv = mi('58598d0a170fc4e044ef547cc27a5c03a1000000790df258', '54:EF:44:E0:C4:0F');
    expect(explainAdvertisement(adv, { key: hex('814aac74c4f17b6c1581e1ab87816b99') })).toMatchObject({ ok: false, code: 'decryption-failed' });
  });

  it('says a key is needed when none is configured (xiaomi-ble test_encryption_needs_v5)', () => {
    const adv = mi('5858480b685f12342d585a0b1841e2aa000e00a4964fb5', '5A:58:2D:34:12:5F');
    expect(explainAdvertisement(adv)).toMatchObject({ ok: false, code: 'no-key' });
  });

  it('does not read legacy v2/v3 encryption (xiaomi-ble test_encryption_needs_v2)', () => {
    const adv = mi('5830b603d28b98c54124f8c3491476757e00000099', 'F8:24:41:C5:98:8B');
    expect(explainAdvertisement(adv, { key: hex('b853075158487aa39a5b5ea9') })).toEqual({
      ok: false, code: 'unsupported', reason: 'mibeacon: legacy (v2/v3) encryption is not read',
    });
  });
});
