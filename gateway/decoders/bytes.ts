// Small byte helpers shared by the decoders. Callers check lengths first: these never guess.
import { createDecipheriv } from 'node:crypto';

export const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
export const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
export const s16le = (b: Uint8Array, i: number) => (u16le(b, i) << 16) >> 16;
export const s16be = (b: Uint8Array, i: number) => (u16be(b, i) << 16) >> 16;
export const u24le = (b: Uint8Array, i: number) => u16le(b, i) | (b[i + 2] << 16);
export const u32le = (b: Uint8Array, i: number) => (u24le(b, i) | (b[i + 3] << 24)) >>> 0;

/** "AA:BB:CC:DD:EE:FF" as the 6 bytes in the order written (most significant first), or null. */
export function addressBytes(address: string): Uint8Array | null {
  if (!/^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/.test(address)) return null;
  return Uint8Array.from(address.split(':'), (pair) => parseInt(pair, 16));
}

export const reversed = (b: Uint8Array) => Uint8Array.from(b).reverse();

/** A battery percentage, or undefined when the byte cannot be one (some firmwares send 0xFF). */
export const percent = (value: number) => (value <= 100 ? value : undefined);

/**
 * AES-128-CCM with a 4-byte tag, as BTHome, pvvx and MiBeacon v4/v5 use it. Returns the plain bytes,
 * or null when the tag does not verify (wrong key, wrong nonce, tampered frame).
 */
export function decryptCcm(
  key: Uint8Array,
  nonce: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
  aad?: Uint8Array,
): Uint8Array | null {
  try {
    const decipher = createDecipheriv('aes-128-ccm', key, nonce, { authTagLength: 4 });
    decipher.setAuthTag(tag);
    if (aad) decipher.setAAD(aad, { plaintextLength: ciphertext.length });
    const plain = decipher.update(ciphertext);
    decipher.final();
    return new Uint8Array(plain);
  } catch {
    return null;
  }
}
