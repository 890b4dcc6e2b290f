// Builders for advertisements in tests: vectors are written as hex, as the format owners publish them.
import type { Advertisement } from '../../../../gateway/decoders/types';

/** Bytes from hex, spaces and colons allowed ("02 CA 09", "A4:C1:38"). */
export function hex(text: string): Uint8Array {
  return Uint8Array.from(Buffer.from(text.replace(/[\s:]/g, ''), 'hex'));
}

export function advertisement(parts: {
  address?: string;
  name?: string;
  manufacturer?: Record<string, string>;
  service?: Record<string, string>;
}): Advertisement {
  const bytes = (entries: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries(entries).map(([key, value]) => [key, hex(value)]));
  return {
    address: parts.address ?? 'AA:BB:CC:DD:EE:FF',
    name: parts.name,
    manufacturerData: bytes(parts.manufacturer),
    serviceData: bytes(parts.service),
  };
}
