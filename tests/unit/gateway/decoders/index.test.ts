import { describe, expect, it } from 'vitest';
import { decodeAdvertisement, explainAdvertisement } from '../../../../gateway/decoders/index';
import type { Advertisement } from '../../../../gateway/decoders/types';
import { advertisement, hex } from './support';

describe('decodeAdvertisement', () => {
  it.each([
    ['bthome-v2', { service: { fcd2: '40 02ca09 03bf13' } }],
    ['ruuvi-5', { manufacturer: { '004c': '0215', '0499': '0512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F' } }],
    ['pvvx', { service: { '181a': 'ccbbaa38c1a4 7707 8813 ca0a 50 01 07' } }],
    ['mibeacon', { address: 'A4:C1:38:B4:94:4C', service: { fe95: '50305b05034c94b438c1a40d10041001ea01' } }],
    ['govee-h5074', { manufacturer: { ec88: '00e609bc126402' } }],
    ['switchbot-meter', { service: { fd3d: '5400e4069835' } }],
    ['inkbird-ibs-th', { name: 'sps', manufacturer: { '07fc': 'c71200c83d5606' } }],
  ])('finds %s by the keys present', (format, parts) => {
    expect(decodeAdvertisement(advertisement(parts))?.format).toBe(format);
  });

  it('falls through to a format that decodes when another one present does not (pvvx alternating BTHome and custom)', () => {
    const adv = advertisement({ service: { fcd2: '41 e445f3c9962b 33221100 6c7c4519', '181a': 'ccbbaa38c1a4 7707 8813 ca0a 50 01 07' } });
    expect(decodeAdvertisement(adv)).toMatchObject({ format: 'pvvx', temperature: 19.11 });
  });

  it('passes the key on to the format that needs it', () => {
    const adv = advertisement({ address: '54:48:E6:8F:80:A5', service: { fcd2: '41 e445f3c9962b 33221100 6c7c4519' } });
    expect(decodeAdvertisement(adv, { key: hex('231d39c1d7cc1ab1aee224cd096db932') })).toMatchObject({ temperature: 25.06 });
    expect(decodeAdvertisement(adv)).toBeNull();
  });
});

describe('explainAdvertisement', () => {
  it('names what it saw when no format applies', () => {
    expect(explainAdvertisement(advertisement({ manufacturer: { '004c': '0215' } }))).toEqual({
      ok: false, code: 'unknown-format', reason: 'no supported format in manufacturer data 0x004c, service data none',
    });
  });

  it('gives every reason when several formats are present and none decodes', () => {
    const adv = advertisement({ service: { fcd2: '41 e445f3c9962b 33221100 6c7c4519', '181a': '0102' } });
    expect(explainAdvertisement(adv)).toEqual({
      ok: false,
      code: 'no-key',
      reason: 'bthome-v2: encrypted frame and no key configured for this sensor; pvvx: no known 0x181A layout is 2 bytes long',
    });
  });

  it('never throws on random bytes under any key it reads', () => {
    let seed = 42; // small deterministic generator, so a failure can be replayed
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const bytes = (length: number) => Uint8Array.from({ length }, () => Math.floor(random() * 256));
    const key = bytes(16);
    for (let round = 0; round < 1000; round++) {
      const data = bytes(Math.floor(random() * 32));
      const companyId = Math.floor(random() * 0x10000).toString(16).padStart(4, '0');
      const advs: Advertisement[] = [
        { address: 'A4:C1:38:AA:BB:CC', manufacturerData: {}, serviceData: { fcd2: data, '181a': data, fe95: data, fd3d: data } },
        { address: 'not-an-address', manufacturerData: { '0499': data, ec88: data, '0969': data }, serviceData: { fcd2: data, fe95: data } },
        { address: 'A4:C1:38:AA:BB:CC', name: 'tps', manufacturerData: { [companyId]: data }, serviceData: {} },
      ];
      for (const adv of advs) {
        expect(() => explainAdvertisement(adv)).not.toThrow();
        expect(() => explainAdvertisement(adv, { key })).not.toThrow();
      }
    }
  });
});
