// Entry point of the decoders: try each format whose key is present and say why nothing decoded.
// Every reader returns at once when its service UUID / company id / name is absent, so trying them
// in turn is cheap. Policy (dedup, replay, downgrade) is not here: see counter-guard.ts.
import { readBthome } from './bthome';
import { DecodeError, type DecodeErrorCode, type FormatReader } from './decode-error';
import { readGovee } from './govee';
import { readInkbird } from './inkbird';
import { readMiBeacon } from './mibeacon';
import { readPvvx } from './pvvx';
import { readRuuvi } from './ruuvi';
import { readSwitchbot } from './switchbot';
import type { Advertisement, DecodedAdvertisement, DecodeOptions } from './types';

export type { Advertisement, DecodedAdvertisement, DecodeOptions } from './types';
export { DecodeError, type DecodeErrorCode } from './decode-error';
export { decodeBthome } from './bthome';
export { decodeGovee } from './govee';
export { decodeInkbird } from './inkbird';
export { decodeMiBeacon } from './mibeacon';
export { decodePvvx } from './pvvx';
export { decodeRuuvi } from './ruuvi';
export { decodeSwitchbot } from './switchbot';
export { CounterGuard, type GuardVerdict } from './counter-guard';
import type { CounterGuard } from './counter-guard';

// Inkbird last: it is recognised by local name only, the others by a registered id.
const READERS: FormatReader[] = [readBthome, readPvvx, readMiBeacon, readRuuvi, readGovee, readSwitchbot, readInkbird];

export type Explanation =
  | { ok: true; value: DecodedAdvertisement }
  | { ok: false; code: DecodeErrorCode | 'unknown-format'; reason: string };

/** Decodes an advertisement, or says in one line why it gives no reading (for the `decode` command and logs). */
export function explainAdvertisement(adv: Advertisement, options: DecodeOptions = {}): Explanation {
  const failures: DecodeError[] = [];
  for (const read of READERS) {
    try {
      const value = read(adv, options);
      if (value) return { ok: true, value };
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      failures.push(error);
    }
  }
  if (failures.length > 0) return { ok: false, code: failures[0].code, reason: failures.map((f) => f.message).join('; ') };
  return { ok: false, code: 'unknown-format', reason: `no supported format in ${describe(adv)}` };
}

export type SensorVerdict =
  | { ok: true; value: DecodedAdvertisement; duplicate: boolean }
  | { ok: false; kind: 'undecodable' | 'downgrade' | 'replay'; reason: string };

const REFUSALS = {
  downgrade: 'plain frame from a sensor that has a key (refused: anyone can send plain frames under its address)',
  replay: 'encrypted frame with an old counter (refused: a replayed frame)',
} as const;

/**
 * What the daemon makes of one advertisement from a store sensor: a reading, a repeat, or a
 * refusal with its reason. `scan` asks the same question so that it never shows as a reading what
 * the daemon refuses. The guard remembers accepted frames (keep one per daemon / per scan).
 */
export function judgeSensorAdvertisement(adv: Advertisement, sensor: { key: Uint8Array | null }, guard: CounterGuard): SensorVerdict {
  const explained = explainAdvertisement(adv, sensor.key ? { key: sensor.key, registeredSensor: true } : { registeredSensor: true });
  if (!explained.ok) return { ok: false, kind: 'undecodable', reason: explained.reason };
  const verdict = guard.check(adv.address, explained.value);
  if (verdict.accept) return { ok: true, value: explained.value, duplicate: false };
  if (verdict.reason === 'duplicate') return { ok: true, value: explained.value, duplicate: true };
  return { ok: false, kind: verdict.reason, reason: `${explained.value.format}: ${REFUSALS[verdict.reason]}` };
}

/** The first format that decodes, or null. */
export function decodeAdvertisement(adv: Advertisement, options: DecodeOptions = {}): DecodedAdvertisement | null {
  const explanation = explainAdvertisement(adv, options);
  return explanation.ok ? explanation.value : null;
}

function describe(adv: Advertisement): string {
  const list = (keys: string[]) => (keys.length ? keys.map((k) => `0x${k}`).join(', ') : 'none');
  const name = adv.name ? `, name "${adv.name}"` : '';
  const manufacturer = list(Object.keys(adv.manufacturerData));
  return `manufacturer data ${manufacturer}, service data ${list(Object.keys(adv.serviceData))}${name}`;
}
