// Where advertisements come from. The daemon, `scan` and the tests see only this interface, so
// nothing but the bluez source needs a radio.
import type { Advertisement } from '../decoders/types';

export interface HeardAdvertisement {
  /** Epoch ms when it was heard; in a replay, the capture's `ts`. */
  ts: number;
  adv: Advertisement;
}

export interface SourceHandlers {
  onAdvertisement: (heard: HeardAdvertisement) => void;
  /** A finite source (replay) has delivered everything. */
  onEnd?: () => void;
  /** The source cannot go on (unreadable file). Live sources retry on their own instead. */
  onError?: (error: Error) => void;
}

export interface AdvertisementSource {
  /** `bluez`, `simulate`, `replay`. */
  readonly kind: string;
  /**
   * Whether the aggregation clock is the wall clock (intervals close on a timer) or the
   * advertisements' own time (replay: intervals close as the file moves on).
   */
  readonly live: boolean;
  /** The source's current time (epoch ms): wall clock, simulated clock or the replay's position. */
  now(): number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Health for the status file (adapter state, errors, progress). */
  status(): Record<string, unknown>;
}
