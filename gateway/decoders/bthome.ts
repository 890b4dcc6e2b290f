// BTHome v2 (https://bthome.io/format, https://bthome.io/encryption): service data 0xFCD2, one
// device-information byte, then objects (id + value, little-endian), optionally AES-CCM encrypted.
import { addressBytes, decryptCcm, reversed, s16le, u16le, u32le } from './bytes';
import { DecodeError, type FormatReader, orNull } from './decode-error';
import type { DecodedAdvertisement } from './types';

const FORMAT = 'bthome-v2';

// Value length of every object id in the spec, so that objects we do not use can be skipped.
// 0x53 (text) and 0x54 (raw) carry their own length byte. The spec says to stop at an unknown id.
const OBJECT_LENGTHS = new Map<number, number>();
const setLength = (length: number, ids: number[]) => ids.forEach((id) => OBJECT_LENGTHS.set(id, length));
setLength(1, [0x00, 0x01, 0x09, 0x2e, 0x2f, 0x3a, 0x46, 0x57, 0x58, 0x59, 0x60, 0x64]);
for (let id = 0x0f; id <= 0x2d; id++) setLength(1, [id]); // binary sensors; 0x12-0x14 are reset to 2 below
setLength(2, [0x02, 0x03, 0x06, 0x07, 0x08, 0x0c, 0x0d, 0x0e, 0x12, 0x13, 0x14, 0x3c, 0x3d, 0x3f, 0x40, 0x41]);
setLength(2, [0x43, 0x44, 0x45, 0x47, 0x48, 0x49, 0x4a, 0x51, 0x52, 0x56, 0x5a, 0x5d, 0x5e, 0x5f, 0x61, 0xf0]);
setLength(3, [0x04, 0x05, 0x0a, 0x0b, 0x42, 0x4b, 0xf2]);
setLength(4, [0x3e, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x55, 0x5b, 0x5c, 0x62, 0x63, 0xf1]);
const VARIABLE_LENGTH = new Set([0x53, 0x54]);

// BTHome has no "not available" value. Firmwares that mean it send the smallest sint16, which
// decodes below absolute zero (−327.68 °C or −3276.8 °C): we report that as a sensor error.
const ABSOLUTE_ZERO = -273.15;

export const readBthome: FormatReader = (adv, options) => {
  const data = adv.serviceData['fcd2'];
  if (!data) return null;
  if (data.length < 1) throw new DecodeError(FORMAT, 'malformed', 'empty service data');
  const info = data[0];
  const version = info >> 5;
  if (version !== 2) throw new DecodeError(FORMAT, 'unsupported', `device information says BTHome version ${version}`);
  const encrypted = (info & 0x01) !== 0;
  const macIncluded = (info & 0x02) !== 0;
  if (macIncluded && data.length < 7) throw new DecodeError(FORMAT, 'malformed', 'truncated MAC address');
  const body = data.subarray(macIncluded ? 7 : 1);
  if (!encrypted) return { format: FORMAT, ...readObjects(body), encrypted: false };

  // Encrypted: ciphertext, then a 4-byte counter and a 4-byte MIC.
  if (body.length < 9) throw new DecodeError(FORMAT, 'malformed', `encrypted frame too short (${body.length} bytes)`);
  if (!options.key) throw new DecodeError(FORMAT, 'no-key', 'encrypted frame and no key configured for this sensor');
  if (options.key.length !== 16) throw new DecodeError(FORMAT, 'no-key', `key must be 16 bytes, got ${options.key.length}`);
  // The nonce uses the MAC in the frame when there is one (it is sent least significant byte first).
  const mac = macIncluded ? reversed(data.subarray(1, 7)) : addressBytes(adv.address);
  if (!mac) throw new DecodeError(FORMAT, 'malformed', `bad address ${adv.address}`);
  const counterBytes = body.subarray(body.length - 8, body.length - 4);
  const nonce = Uint8Array.from([...mac, 0xd2, 0xfc, info, ...counterBytes]);
  const plain = decryptCcm(options.key, nonce, body.subarray(0, body.length - 8), body.subarray(body.length - 4));
  if (!plain) throw new DecodeError(FORMAT, 'decryption-failed', 'decryption failed (wrong key or tampered frame)');
  // The encryption counter, not the 8-bit packet id, is what proves freshness: it replaces it.
  return { format: FORMAT, ...readObjects(plain), counter: u32le(counterBytes, 0), counterBits: 32, encrypted: true };
};

function readObjects(body: Uint8Array): Omit<DecodedAdvertisement, 'format'> {
  const result: Omit<DecodedAdvertisement, 'format'> = {};
  let i = 0;
  while (i < body.length) {
    const id = body[i];
    let start = i + 1;
    let length = OBJECT_LENGTHS.get(id);
    if (VARIABLE_LENGTH.has(id)) {
      length = body[i + 1];
      start = i + 2;
    }
    if (length === undefined) break; // newer object id: the spec says to stop here, what came before stands
    if (start + length > body.length) throw new DecodeError(FORMAT, 'malformed', `object 0x${hex(id)} is truncated`);
    const value = body.subarray(start, start + length);
    i = start + length;
    // The first temperature / humidity object wins when a device sends several.
    switch (id) {
      case 0x00: result.counter = value[0]; result.counterBits = 8; break;
      case 0x01: result.battery = value[0]; break;
      case 0x02: setTemperature(result, s16le(value, 0) / 100); break;
      case 0x45: setTemperature(result, s16le(value, 0) / 10); break;
      case 0x57: setTemperature(result, (value[0] << 24) >> 24); break;
      case 0x58: setTemperature(result, Math.round(((value[0] << 24) >> 24) * 35) / 100); break;
      case 0x03: result.humidity ??= u16le(value, 0) / 100; break;
      case 0x2e: result.humidity ??= value[0]; break;
      case 0x0c: result.batteryMv ??= u16le(value, 0); break; // voltage in mV (factor 0.001 V)
    }
  }
  return result;
}

function setTemperature(result: Omit<DecodedAdvertisement, 'format'>, celsius: number) {
  if (result.temperature !== undefined || result.error) return;
  if (celsius < ABSOLUTE_ZERO) result.error = true;
  else result.temperature = celsius;
}

const hex = (byte: number) => byte.toString(16).padStart(2, '0');

export const decodeBthome = orNull(readBthome);
