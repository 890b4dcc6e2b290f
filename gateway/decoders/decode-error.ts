// Why an advertisement that looks like a known format still gives no reading. Format readers throw
// it; the public decodeX functions turn it into null and explainAdvertisement into a reason that the
// `decode` command prints.
import type { Advertisement, DecodedAdvertisement, DecodeOptions } from './types';

export type DecodeErrorCode =
  | 'no-key' // encrypted and no key configured for this sensor
  | 'decryption-failed' // wrong key or tampered frame
  | 'malformed' // truncated, wrong length, bad checksum, impossible value
  | 'unsupported'; // a variant of a known format that we do not read

export class DecodeError extends Error {
  constructor(
    readonly format: string,
    readonly code: DecodeErrorCode,
    detail: string,
  ) {
    super(`${format}: ${detail}`);
    this.name = 'DecodeError';
  }
}

/** Reads one format: null when the advertisement is not that format at all, DecodeError when it is but is unusable. */
export type FormatReader = (adv: Advertisement, options: DecodeOptions) => DecodedAdvertisement | null;

/** The contract's `decodeX`: same reader, failures folded into null. */
export function orNull(read: FormatReader) {
  return (adv: Advertisement, options: DecodeOptions = {}): DecodedAdvertisement | null => {
    try {
      return read(adv, options);
    } catch (error) {
      if (error instanceof DecodeError) return null;
      throw error;
    }
  };
}
