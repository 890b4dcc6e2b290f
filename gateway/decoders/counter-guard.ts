// Per-sensor policy on top of the pure decoders (which keep no state):
// - duplicate: sensors repeat each frame several times; the same counter again is dropped;
// - downgrade: a sensor that has a key, or has been heard encrypted, must stay encrypted: a plain
//   frame with its address is someone else speaking for it (bthome.io/encryption, "Limitations");
// - replay: an encrypted frame whose 32-bit counter (BTHome, MiBeacon v4/v5) does not move forward
//   is an old frame sent again. The counter wraps at 2^32, and a sensor whose battery was changed
//   starts again from 0, so a counter below RESTART_WINDOW is let through after a high one (as Home
//   Assistant's bthome-ble does): otherwise a sensor would fall silent after a battery change.
// Counters are kept per format, since one device can alternate formats with their own counters.
import type { DecodedAdvertisement } from './types';

export type GuardVerdict = { accept: true } | { accept: false; reason: 'duplicate' | 'downgrade' | 'replay' };

export interface CounterGuardOptions {
  /** Whether a bind key is configured for this address (plain frames from it are then refused). */
  hasKey?: (address: string) => boolean;
  /** Addresses remembered at most; the least recently heard are forgotten first. */
  maxSensors?: number;
}

const RESTART_WINDOW = 100;

interface SensorState {
  heardEncrypted: boolean;
  lastCounter: Map<string, number>; // by format
}

export class CounterGuard {
  private readonly sensors = new Map<string, SensorState>();
  private readonly hasKey: (address: string) => boolean;
  private readonly maxSensors: number;

  constructor(options: CounterGuardOptions = {}) {
    this.hasKey = options.hasKey ?? (() => false);
    this.maxSensors = options.maxSensors ?? 4096;
  }

  /** Says whether to keep this reading, and remembers it when kept. */
  check(address: string, reading: DecodedAdvertisement): GuardVerdict {
    const state = this.sensors.get(address) ?? { heardEncrypted: false, lastCounter: new Map<string, number>() };
    const encrypted = reading.encrypted === true;
    if (!encrypted && (state.heardEncrypted || this.hasKey(address))) return { accept: false, reason: 'downgrade' };
    const last = state.lastCounter.get(reading.format);
    if (reading.counter !== undefined && last !== undefined) {
      if (reading.counter === last) return { accept: false, reason: 'duplicate' };
      const checksOrder = encrypted && reading.counterBits === 32;
      if (checksOrder && !movesForward(last, reading.counter)) return { accept: false, reason: 'replay' };
    }
    if (encrypted) state.heardEncrypted = true;
    if (reading.counter !== undefined) state.lastCounter.set(reading.format, reading.counter);
    this.remember(address, state);
    return { accept: true };
  }

  /** Drops what is known of a sensor, e.g. when it is removed from the configuration. */
  forget(address: string): void {
    this.sensors.delete(address);
  }

  private remember(address: string, state: SensorState) {
    this.sensors.delete(address); // re-inserting keeps the Map in least-recently-heard order
    this.sensors.set(address, state);
    if (this.sensors.size > this.maxSensors) this.sensors.delete(this.sensors.keys().next().value as string);
  }
}

function movesForward(last: number, next: number): boolean {
  const ahead = (next - last) >>> 0; // distance modulo 2^32, so 0xFFFFFFFF -> 0 is one step
  if (ahead > 0 && ahead < 2 ** 31) return true;
  return next < RESTART_WINDOW && last >= RESTART_WINDOW; // the sensor restarted
}
