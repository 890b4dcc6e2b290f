// Custom thermometer firmwares on service data 0x181A (Environmental Sensing), told apart by length
// (pvvx/ATC_MiThermometer README "Custom format" and python-interface, atc1441/ATC_MiThermometer):
//   15 bytes  pvvx custom, little-endian, 0.01 °C
//   13 bytes  atc1441, big-endian, 0.1 °C
//   11 bytes  pvvx custom encrypted: counter, 6 encrypted bytes, 4-byte MIC
//    8 bytes  atc1441 encrypted: counter, 3 encrypted bytes, 4-byte MIC
import { addressBytes, decryptCcm, percent, reversed, s16be, s16le, u16be, u16le } from './bytes';
import { DecodeError, type FormatReader, orNull } from './decode-error';
import type { DecodedAdvertisement, DecodeOptions } from './types';

export const readPvvx: FormatReader = (adv, options) => {
  const data = adv.serviceData['181a'];
  if (!data) return null;
  switch (data.length) {
    case 15: // MAC (6, reversed), temperature, humidity, battery mV, battery %, counter, flags
      return {
        format: 'pvvx',
        temperature: s16le(data, 6) / 100,
        humidity: u16le(data, 8) / 100,
        batteryMv: u16le(data, 10),
        battery: percent(data[12]),
        counter: data[13],
        counterBits: 8,
      };
    case 13: // MAC (6), temperature, humidity %, battery %, battery mV, counter
      return {
        format: 'atc1441',
        temperature: s16be(data, 6) / 10,
        humidity: data[8],
        battery: percent(data[9]),
        batteryMv: u16be(data, 10),
        counter: data[12],
        counterBits: 8,
      };
    case 11: {
      const plain = decrypt('pvvx-encrypted', data, adv.address, options);
      return {
        ...encryptedBase('pvvx-encrypted', data),
        temperature: s16le(plain, 0) / 100,
        humidity: u16le(plain, 2) / 100,
        battery: percent(plain[4]),
      };
    }
    case 8: {
      const plain = decrypt('atc1441-encrypted', data, adv.address, options);
      // Half-degree steps from −40 °C, half-percent humidity; the top battery bit is the trigger output.
      return {
        ...encryptedBase('atc1441-encrypted', data),
        temperature: plain[0] / 2 - 40,
        humidity: plain[1] / 2,
        battery: percent(plain[2] & 0x7f),
      };
    }
    default:
      throw new DecodeError('pvvx', 'unsupported', `no known 0x181A layout is ${data.length} bytes long`);
  }
};

const encryptedBase = (format: string, data: Uint8Array): DecodedAdvertisement => ({
  format,
  counter: data[0],
  counterBits: 8,
  encrypted: true,
});

// Nonce: the MAC least significant byte first, then the AD header as sent on air (length, 0x16,
// UUID 0x181A little-endian) and the counter. Associated data is 0x11, as in MiBeacon.
function decrypt(format: string, data: Uint8Array, address: string, options: DecodeOptions): Uint8Array {
  if (!options.key) throw new DecodeError(format, 'no-key', 'encrypted frame and no key configured for this sensor');
  if (options.key.length !== 16) throw new DecodeError(format, 'no-key', `key must be 16 bytes, got ${options.key.length}`);
  const mac = addressBytes(address);
  if (!mac) throw new DecodeError(format, 'malformed', `bad address ${address}`);
  const adLength = data.length + 3; // AD type byte and 2-byte UUID precede the data
  const nonce = Uint8Array.from([...reversed(mac), adLength, 0x16, 0x1a, 0x18, data[0]]);
  const [ciphertext, mic] = [data.subarray(1, data.length - 4), data.subarray(data.length - 4)];
  const plain = decryptCcm(options.key, nonce, ciphertext, mic, Uint8Array.of(0x11));
  if (!plain) throw new DecodeError(format, 'decryption-failed', 'decryption failed (wrong key or tampered frame)');
  return plain;
}

export const decodePvvx = orNull(readPvvx);
