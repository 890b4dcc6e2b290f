// Synthetic advertisements for demos and benchmarks: the store's configured sensors, with
// fridge / freezer / hot case / ambient curves, encoded as real BTHome v2 frames (encrypted
// when the sensor has a key) so that they go through the real decoder path.
import { createHash } from 'node:crypto';
import type { Logger } from '../log';
import type { StoreSensor } from '../state';
import { BTHOME_UUID, encodeBthome } from './frames';
import type { AdvertisementSource, SourceHandlers } from './types';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type FurnitureKind = 'chilled' | 'freezer' | 'hot' | 'ambient';

export interface SensorProfile {
  kind: FurnitureKind;
  /** Stable pseudo-random numbers [0, 1) for this sensor. */
  seed: number[];
}

/** Deterministic [0, 1) numbers from a string (same sensor, same curve, every run). */
export function hashUnit(text: string, count: number): number[] {
  const digest = createHash('sha256').update(text).digest();
  return Array.from({ length: count }, (_, i) => digest.readUInt32BE((i * 4) % 32) / 2 ** 32);
}

export function profileFor(serialNo: string): SensorProfile {
  const seed = hashUnit(serialNo, 8);
  const r = seed[0];
  const kind: FurnitureKind = r < 0.5 ? 'chilled' : r < 0.75 ? 'freezer' : r < 0.85 ? 'hot' : 'ambient';
  return { kind, seed };
}

/** The furniture's temperature at `t` (°C), or null while the probe is faulty. */
export function simulatedTemperature(profile: SensorProfile, t: number): number | null {
  const [, a, b, c, d, e] = profile.seed;
  const wave = (period: number, phase: number) => Math.sin((2 * Math.PI * t) / period + phase * 2 * Math.PI);
  // A door opening now and then: a quick rise that decays over a few minutes.
  const slot = Math.floor(t / (10 * MINUTE));
  const [doorChance, doorAt] = hashUnit(`${a}:${slot}`, 2);
  const sinceDoor = t - (slot * 10 * MINUTE + doorAt * 5 * MINUTE);
  const door = doorChance < 0.25 && sinceDoor > 0 ? Math.exp(-sinceDoor / (3 * MINUTE)) : 0;
  // Defrost: a plateau every few hours.
  const defrost = (every: number, length: number, offset: number) => {
    const into = (((t + offset * every) % every) + every) % every;
    return into < length ? Math.sin((Math.PI * into) / length) : 0;
  };
  // A rare probe fault on a few sensors: a few minutes of "not available".
  if (e < 0.1 && (((t + d * 4 * HOUR) % (4 * HOUR)) + 4 * HOUR) % (4 * HOUR) < 3 * MINUTE) return null;
  switch (profile.kind) {
    case 'chilled':
      return 3.5 + b * 1.5 + 1.0 * wave(20 * MINUTE, c) + 2.5 * door + 5 * defrost(6 * HOUR, 20 * MINUTE, d);
    case 'freezer':
      return -21 + b * 2 + 1.4 * wave(35 * MINUTE, c) + 3 * door + 16 * defrost(8 * HOUR, 25 * MINUTE, d);
    case 'hot':
      return 62 + b * 3 + 1.5 * wave(45 * MINUTE, c) - 4 * door;
    default:
      return 21 + b * 2 + 1.5 * wave(24 * HOUR, c) + 0.3 * wave(30 * MINUTE, d);
  }
}

interface SimState {
  profile: SensorProfile;
  nextAd: number;
  adsSinceMeasure: number;
  packetId: number;
  counter: number;
  frame: Uint8Array | null;
}

export interface SimulateOptions {
  /** The store's sensors, read at every tick (config refreshes apply at once). */
  sensors: () => readonly StoreSensor[];
  /** Simulated seconds per real second. */
  speed: number;
  /** Advertising interval of a simulated sensor (simulated ms). */
  advertisingIntervalMs?: number;
  /** A new measurement every N advertisements (the others repeat it, as real sensors do). */
  repeats?: number;
  random?: () => number;
  realNow?: () => number;
}

export class SimulateSource implements AdvertisementSource {
  readonly kind = 'simulate';
  readonly live = true;
  private timer: NodeJS.Timeout | null = null;
  private readonly states = new Map<string, SimState>();
  private realStart = 0;
  private advertisements = 0;

  constructor(
    private readonly options: SimulateOptions,
    private readonly handlers: SourceHandlers,
    private readonly logger: Logger,
  ) {}

  now(): number {
    const real = this.realNow();
    return this.realStart + (real - this.realStart) * this.options.speed;
  }

  async start(): Promise<void> {
    this.realStart = this.realNow();
    if (this.options.sensors().length === 0) this.logger.warn('no store sensors to simulate (pair first, or wait for the configuration)');
    this.tick(); // places every sensor's first advertisement
    const tickMs = Math.max(20, Math.min(250, 1000 / this.options.speed));
    this.timer = setInterval(() => this.tick(), tickMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  status(): Record<string, unknown> {
    return { speed: this.options.speed, sensors: this.states.size, advertisements: this.advertisements };
  }

  /** Emits every advertisement due up to the simulated now. */
  tick(): void {
    const now = this.now();
    const random = this.options.random ?? Math.random;
    const interval = this.options.advertisingIntervalMs ?? 5000;
    const repeats = this.options.repeats ?? 3;
    for (const sensor of this.options.sensors()) {
      let state = this.states.get(sensor.serialNo);
      if (!state) {
        state = { profile: profileFor(sensor.serialNo), nextAd: now + random() * interval, adsSinceMeasure: repeats, packetId: 0, counter: 0, frame: null };
        this.states.set(sensor.serialNo, state);
      }
      // After a stall (suspended laptop), skip ahead rather than flood.
      if (now - state.nextAd > 10 * MINUTE) state.nextAd = now - interval;
      while (state.nextAd <= now) {
        const ts = state.nextAd;
        if (state.adsSinceMeasure >= repeats || !state.frame) {
          state.adsSinceMeasure = 0;
          state.packetId = (state.packetId + 1) & 0xff;
          state.counter = (state.counter + 1) >>> 0;
          state.frame = this.frame(sensor, state, ts);
        }
        state.adsSinceMeasure += 1;
        const rssiBase = state.profile.seed[7];
        this.advertisements += 1;
        this.handlers.onAdvertisement({
          ts,
          adv: {
            address: sensor.serialNo,
            rssi: Math.round(-55 - rssiBase * 30 + (random() - 0.5) * 8),
            name: `SIM_${sensor.serialNo.slice(-5).replace(':', '')}`,
            manufacturerData: {},
            serviceData: { [BTHOME_UUID]: state.frame },
          },
        });
        state.nextAd += interval * (0.9 + random() * 0.2);
      }
    }
  }

  private frame(sensor: StoreSensor, state: SimState, ts: number): Uint8Array {
    const temperature = simulatedTemperature(state.profile, ts);
    const battery = Math.round(100 - state.profile.seed[6] * 45);
    const values = {
      packetId: state.packetId,
      battery,
      temperature: temperature === null ? null : Math.round(temperature * 100) / 100,
      humidity: state.profile.kind === 'ambient' ? 40 + state.profile.seed[3] * 20 : undefined,
    };
    const encryption = sensor.key ? { key: sensor.key, address: sensor.serialNo, counter: state.counter } : undefined;
    return encodeBthome(values, encryption);
  }

  private realNow(): number {
    return this.options.realNow?.() ?? Date.now();
  }
}
