// The capture / replay file: JSON lines
//   {"ts": ISO-8601, "address": "AA:BB:CC:DD:EE:FF", "rssi": -70, "name": "...",
//    "manufacturer_data": {"0499": "hex"}, "service_data": {"fcd2": "hex"},
//    "newest_manufacturer": "0499"}   (optional: which entry BlueZ changed last, see Advertisement)
// Keys are the 16-bit company id / service UUID in lowercase hex; values are the bytes without
// the company id / without the UUID.
import { createReadStream } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';
import type { Advertisement } from '../decoders/types';
import { normalizeAddress } from '../state';
import type { HeardAdvertisement } from './types';

const HEX = /^([0-9a-fA-F]{2})*$/;
const KEY = /^([0-9a-fA-F]{4}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

const DataMapSchema = z
  .record(z.string().regex(KEY, 'key must be 4 hex digits (or a 128-bit UUID)'), z.string().regex(HEX, 'value must be hex bytes'))
  .optional();

const CaptureLineSchema = z.object({
  ts: z.string().datetime({ offset: true }),
  address: z.string(),
  rssi: z.number().int().nullish(),
  name: z.string().nullish(),
  manufacturer_data: DataMapSchema,
  service_data: DataMapSchema,
  newest_manufacturer: z.string().regex(/^[0-9a-fA-F]{4}$/).optional(),
});

export class CaptureLineError extends Error {}

function toBytesMap(map: Record<string, string> | undefined): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  if (!map) return out;
  for (const [key, hex] of Object.entries(map)) out[key.toLowerCase()] = Uint8Array.from(Buffer.from(hex, 'hex'));
  return out;
}

/** One capture line as a heard advertisement; throws CaptureLineError with a readable reason. */
export function parseCaptureLine(line: string): HeardAdvertisement {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new CaptureLineError('invalid JSON');
  }
  const parsed = CaptureLineSchema.safeParse(json);
  if (!parsed.success) {
    throw new CaptureLineError(parsed.error.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; '));
  }
  const address = normalizeAddress(parsed.data.address);
  if (!address) throw new CaptureLineError(`address: ${JSON.stringify(parsed.data.address)} is not a BLE address`);
  const adv: Advertisement = {
    address,
    manufacturerData: toBytesMap(parsed.data.manufacturer_data),
    serviceData: toBytesMap(parsed.data.service_data),
  };
  if (parsed.data.rssi != null) adv.rssi = parsed.data.rssi;
  if (parsed.data.name != null) adv.name = parsed.data.name;
  if (parsed.data.newest_manufacturer !== undefined) adv.newestManufacturerKey = parsed.data.newest_manufacturer.toLowerCase();
  return { ts: Date.parse(parsed.data.ts), adv };
}

const toHexMap = (map: Record<string, Uint8Array>) =>
  Object.fromEntries(Object.entries(map).map(([k, v]) => [k, Buffer.from(v).toString('hex')]));

/** The capture line of a heard advertisement (scan --record, fixture generation). */
export function formatCaptureLine({ ts, adv }: HeardAdvertisement): string {
  const line: Record<string, unknown> = { ts: new Date(ts).toISOString(), address: adv.address };
  if (adv.rssi !== undefined) line.rssi = adv.rssi;
  if (adv.name !== undefined) line.name = adv.name;
  if (Object.keys(adv.manufacturerData).length > 0) line.manufacturer_data = toHexMap(adv.manufacturerData);
  if (Object.keys(adv.serviceData).length > 0) line.service_data = toHexMap(adv.serviceData);
  if (adv.newestManufacturerKey !== undefined) line.newest_manufacturer = adv.newestManufacturerKey;
  return JSON.stringify(line);
}

/** The lines of a capture file (gunzipped when it ends in .gz); rejects when it cannot be opened. */
export async function openCaptureLines(file: string): Promise<Interface> {
  const stream = createReadStream(file);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  const input = file.endsWith('.gz') ? stream.pipe(createGunzip()) : stream;
  return createInterface({ input, crlfDelay: Infinity });
}
