// What the gateway keeps in its data dir besides the buffer: the pairing (token, mode 0600) and
// the store's configuration as last fetched from the server (it holds the sensors' keys: 0600).
import { chownSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeFileAtomic } from './files';
import { BLE_ADDRESS, ConfigAnswerSchema, ConfigSensorSchema, DEFAULT_SAMPLING_INTERVAL_SECONDS, type ReleaseOffer, ReleaseOfferSchema } from './protocol';

export const PAIRING_FILE = 'pairing.json';
export const STORE_CONFIG_FILE = 'store-config.json';
export const STATUS_FILE = 'status.json';
export const BUFFER_FILE = 'buffer.sqlite';

/** `aa:bb:…` or `AA-BB-…` as the canonical `AA:BB:CC:DD:EE:FF`, or null. */
export function normalizeAddress(value: string): string | null {
  const upper = value.trim().toUpperCase().replace(/-/g, ':');
  return BLE_ADDRESS.test(upper) ? upper : null;
}

export const PairingSchema = z.object({
  server: z.string().url(),
  gateway_info: z.string().min(1),
  gateway_token: z.string().min(1),
  store_id: z.string().min(1),
  paired_at: z.string(),
});
export type Pairing = z.infer<typeof PairingSchema>;

export interface StoreSensor {
  equipmentId: string;
  /** BLE address, `AA:BB:CC:DD:EE:FF`. */
  serialNo: string;
  /** AES-128 key for encrypted formats, or null. */
  key: Uint8Array | null;
}

export interface StoreConfig {
  storeId: string;
  samplingIntervalSeconds: number;
  sensors: StoreSensor[];
  /** The release the console wants this box to run; null: no change. */
  release?: ReleaseOffer | null;
}

export interface ParsedStoreConfig {
  config: StoreConfig;
  /** Entries left out, with why (logged by the caller). */
  skipped: { entry: unknown; reason: string }[];
}

/** Validates a /config answer. A malformed sensor entry is skipped (and reported), not fatal. */
export function parseStoreConfig(body: unknown): ParsedStoreConfig {
  const wire = ConfigAnswerSchema.parse(body);
  const sensors: StoreSensor[] = [];
  const skipped: ParsedStoreConfig['skipped'] = [];
  const seen = new Set<string>();
  for (const entry of wire.sensors) {
    const parsed = ConfigSensorSchema.safeParse(entry);
    if (!parsed.success) {
      skipped.push({ entry, reason: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
      continue;
    }
    const serialNo = normalizeAddress(parsed.data.serial_no);
    if (!serialNo) {
      skipped.push({ entry, reason: `serial_no ${JSON.stringify(parsed.data.serial_no)} is not a BLE address` });
      continue;
    }
    if (seen.has(serialNo)) {
      skipped.push({ entry, reason: `serial_no ${serialNo} is listed twice` });
      continue;
    }
    let key: Uint8Array | null = null;
    const hex = parsed.data.encryption_key?.trim();
    if (hex) {
      if (!/^([0-9a-fA-F]{2}){16}$/.test(hex)) {
        // Without its key an encrypted sensor cannot be read, and accepting its plain frames
        // would let anyone spoof it: leave it out, loudly.
        skipped.push({ entry: { ...parsed.data, encryption_key: '(hidden)' }, reason: 'encryption_key is not 32 hex digits' });
        continue;
      }
      key = Uint8Array.from(Buffer.from(hex, 'hex'));
    }
    seen.add(serialNo);
    sensors.push({ equipmentId: String(parsed.data.equipment_id), serialNo, key });
  }
  const release = wire.gateway_release == null ? null : ReleaseOfferSchema.safeParse(wire.gateway_release);
  if (release && !release.success) skipped.push({ entry: wire.gateway_release, reason: `gateway_release: ${release.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` });
  return {
    config: {
      storeId: wire.store_id,
      samplingIntervalSeconds: wire.sampling_interval_seconds ?? DEFAULT_SAMPLING_INTERVAL_SECONDS,
      sensors,
      release: release?.success ? release.data : null,
    },
    skipped,
  };
}

/** On-disk form of the store config: the wire answer plus when it was fetched. */
const StoredStoreConfigSchema = z.object({ fetched_at: z.string(), body: z.unknown() });

export class DataDir {
  constructor(readonly dir: string) {}

  path(name: string): string {
    return path.join(this.dir, name);
  }

  readPairing(): Pairing | null {
    const raw = readJsonFile(this.path(PAIRING_FILE));
    return raw === null ? null : PairingSchema.parse(raw);
  }

  writePairing(pairing: Pairing): void {
    this.writePrivate(PAIRING_FILE, JSON.stringify(pairing, null, 2) + '\n');
  }

  /** The last /config answer and when it was fetched, or null. */
  readStoreConfig(): (ParsedStoreConfig & { fetchedAt: string; body: unknown }) | null {
    const raw = readJsonFile(this.path(STORE_CONFIG_FILE));
    if (raw === null) return null;
    const stored = StoredStoreConfigSchema.parse(raw);
    return { ...parseStoreConfig(stored.body), fetchedAt: stored.fetched_at, body: stored.body };
  }

  writeStoreConfig(body: unknown, fetchedAt: Date): void {
    this.writePrivate(STORE_CONFIG_FILE, JSON.stringify({ fetched_at: fetchedAt.toISOString(), body }, null, 2) + '\n');
  }

  /**
   * Mode 0600, atomically. Run as root (`sudo onreco-gateway pair`), the file is given to the
   * data dir's owner, so that the daemon's user can still read it.
   */
  private writePrivate(name: string, text: string): void {
    const file = this.path(name);
    writeFileAtomic(file, text, { mode: 0o600, durable: true });
    if (process.getuid?.() === 0) {
      const owner = statSync(this.dir);
      if (owner.uid !== 0) chownSync(file, owner.uid, owner.gid);
    }
  }
}
