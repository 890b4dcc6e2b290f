// Xiaomi MiBeacon, service data 0xFE95 (as read by Home Assistant's xiaomi-ble and pvvx's mi_like):
// frame control (2), product id (2), frame counter (1), [MAC (6, reversed)], [capability (1-2)],
// then objects: id (2, LE), length (1), value. v4/v5 encryption is AES-CCM with a 16-byte bind key.
import { addressBytes, decryptCcm, percent, reversed, s16le, u16le, u24le } from './bytes';
import { DecodeError, type FormatReader, orNull } from './decode-error';
import type { DecodedAdvertisement } from './types';

const FORMAT = 'mibeacon';

export const readMiBeacon: FormatReader = (adv, options) => {
  const data = adv.serviceData['fe95'];
  if (!data) return null;
  if (data.length < 5) throw new DecodeError(FORMAT, 'malformed', `header truncated (${data.length} bytes)`);
  const control = u16le(data, 0);
  const version = control >> 12;
  if (control & 0x0080) throw new DecodeError(FORMAT, 'unsupported', 'mesh frames are not read');
  if (version < 2) throw new DecodeError(FORMAT, 'unsupported', `MiBeacon version ${version} is not read`);
  let i = 5;
  if (control & 0x0010) {
    // The MAC in the frame must be the sender's, or the frame was relayed or forged.
    i += 6;
    if (data.length < i) throw new DecodeError(FORMAT, 'malformed', 'MAC address truncated');
    const frameMac = reversed(data.subarray(5, 11));
    if (addressBytes(adv.address)?.join() !== frameMac.join()) {
      throw new DecodeError(FORMAT, 'malformed', 'MAC in the frame is not the sender address');
    }
  }
  if (control & 0x0020) {
    i += 1;
    if (data.length < i) throw new DecodeError(FORMAT, 'malformed', 'capability truncated');
    if (data[i - 1] & 0x20) i += 1; // an I/O capability byte follows
  }
  if (!(control & 0x0040)) throw new DecodeError(FORMAT, 'malformed', 'frame carries no object (pairing beacon)');
  const frameCounter = data[4];
  if (!(control & 0x0008)) {
    if (data.length < i + 3) throw new DecodeError(FORMAT, 'malformed', 'object truncated');
    return { format: FORMAT, ...readObjects(data.subarray(i)), counter: frameCounter, counterBits: 8, encrypted: false };
  }

  if (version <= 3) throw new DecodeError(FORMAT, 'unsupported', 'legacy (v2/v3) encryption is not read');
  // v4/v5: ciphertext, 3-byte extended counter, 4-byte MIC.
  if (data.length < i + 1 + 7) throw new DecodeError(FORMAT, 'malformed', 'encrypted frame too short');
  if (!options.key) throw new DecodeError(FORMAT, 'no-key', 'encrypted frame and no key configured for this sensor');
  if (options.key.length !== 16) throw new DecodeError(FORMAT, 'no-key', `key must be 16 bytes, got ${options.key.length}`);
  const mac = addressBytes(adv.address);
  if (!mac) throw new DecodeError(FORMAT, 'malformed', `bad address ${adv.address}`);
  const extended = data.subarray(data.length - 7, data.length - 4);
  // Nonce: MAC least significant byte first, product id, frame counter, extended counter.
  const nonce = Uint8Array.from([...reversed(mac), ...data.subarray(2, 5), ...extended]);
  const [ciphertext, mic] = [data.subarray(i, data.length - 7), data.subarray(data.length - 4)];
  const plain = decryptCcm(options.key, nonce, ciphertext, mic, Uint8Array.of(0x11));
  if (!plain) throw new DecodeError(FORMAT, 'decryption-failed', 'decryption failed (wrong key or tampered frame)');
  // The frame counter is the low byte of a 32-bit counter whose upper 24 bits are the extended one.
  const counter = (u24le(extended, 0) * 256 + frameCounter) >>> 0;
  return { format: FORMAT, ...readObjects(plain), counter, counterBits: 32, encrypted: true };
};

// Temperature and humidity come in 0.1 steps; one frame often carries a single object, so a
// temperature-less result (humidity or battery only) is normal for this format.
function readObjects(payload: Uint8Array): Omit<DecodedAdvertisement, 'format'> {
  const result: Omit<DecodedAdvertisement, 'format'> = {};
  let i = 0;
  while (i < payload.length) {
    if (i + 3 > payload.length) throw new DecodeError(FORMAT, 'malformed', 'object header truncated');
    const id = u16le(payload, i);
    const length = payload[i + 2];
    const value = payload.subarray(i + 3, i + 3 + length);
    if (value.length < length) throw new DecodeError(FORMAT, 'malformed', `object 0x${id.toString(16)} truncated`);
    i += 3 + length;
    if (id === 0x1004 && length === 2) result.temperature = s16le(value, 0) / 10;
    else if (id === 0x1006 && length === 2) result.humidity = u16le(value, 0) / 10;
    else if (id === 0x100a && length >= 1) result.battery = percent(value[0]);
    else if (id === 0x100d && length === 4) {
      result.temperature = s16le(value, 0) / 10;
      result.humidity = u16le(value, 2) / 10;
    }
  }
  return result;
}

export const decodeMiBeacon = orNull(readMiBeacon);
