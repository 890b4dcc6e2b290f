import { toCompactDateTime } from '~/domain/japan-time';
import type { WireReading } from '../../../gateway/protocol';
import { CurveEvaluator, excursionTouches, type Excursion, MINUTE_MS, type MinuteWindow, type SensorCurve, windowTouches } from './curves';
import { excursionSpan, type ExcursionTarget, fitsClimate, isClear, randomExcursion } from './incidents';
import { type DemoPlan, type PlannedSensor, type PlannedStore, targetOf } from './plan';
import { Rng } from './prng';

// The living demo: after the seed, a simulated gateway per demo store goes on sending what the
// seeded curves say (the same formula, from the minute after the seed, so the graphs join up)
// plus incidents of its own, drawn hour by hour from a PRNG seeded with the hour: doors left
// open, cases set too cold, warmers whose heater trips (the seed's randomExcursion), and now
// and then a few minutes of error readings. Pure: scripts/simulator.ts does the talking.

/** A gateway back after the console was stopped sends at most this much of its buffer. */
export const BACKFILL_LIMIT_MINUTES = 24 * 60;
/**
 * Each sensor may have an incident only in its own hour of every CYCLE_HOURS (prime, so its
 * turn drifts across the day): an incident is over before the sensor's next turn, so two never
 * overlap and the incidents of an hour depend on that hour alone.
 */
export const CYCLE_HOURS = 29;
/** Chance of a temperature excursion, then of a burst of error readings, at a sensor's turn. */
const EXCURSION_CHANCE = 0.15;
const ERROR_CHANCE = 0.012;
const ERROR_MINUTES: [number, number] = [3, 15];

export interface SimulatedStore {
  store: PlannedStore;
  /** The sensors that go on reporting (a sensor silent at the seed stays silent). */
  sensors: PlannedSensor[];
}

export type SimulatedIncident =
  | { kind: 'excursion'; storeId: string; sensorId: number; excursion: Excursion }
  | { kind: 'error'; storeId: string; sensorId: number; window: MinuteWindow };

interface Candidate {
  storeId: string;
  target: ExcursionTarget;
  turn: number;
}

/**
 * The stores the simulated gateways speak for: those with a gateway whose sensors reported up
 * to the seed minute. Removed, waiting and unconfigured stores have no such sensor, and the
 * store whose gateway the seed left down (its readings end hours before) stays down.
 */
export function simulatedStores(plan: DemoPlan): SimulatedStore[] {
  return plan.stores.flatMap((store) => {
    const sensors = store.sensors.filter((sensor) => sensor.readings?.last === plan.nowMinute);
    return store.gatewayInfo !== null && sensors.length > 0 ? [{ store, sensors }] : [];
  });
}

/** The first minute a gateway sends after a (re)start: after the store's newest stored reading, within the backfill limit. */
export function resumeMinute(lastStored: number | null, seedMinute: number, nowMinute: number): number {
  return Math.max(lastStored ?? seedMinute, nowMinute - BACKFILL_LIMIT_MINUTES) + 1;
}

/** Whole minutes per batch so that a batch of `sensors` carries at most `maxReadings` readings. */
export function minutesPerBatch(sensors: number, maxReadings: number): number {
  return Math.max(1, Math.floor(maxReadings / Math.max(1, sensors)));
}

/** The seeded curve has nothing planned (excursion, error, gap) anywhere in [from, to]. */
function quiet(curve: SensorCurve, from: number, to: number): boolean {
  const touches = (w: MinuteWindow) => windowTouches(w, from, to);
  return !curve.excursions.some((ex) => excursionTouches(ex, from, to)) && !curve.errors.some(touches) && !curve.gaps.some(touches);
}

export class DemoSimulation {
  readonly stores: SimulatedStore[];
  private readonly candidates: Candidate[];
  private readonly byHour = new Map<number, SimulatedIncident[]>();

  constructor(private readonly plan: DemoPlan) {
    this.stores = simulatedStores(plan);
    this.candidates = this.stores
      .flatMap(({ store, sensors }) => sensors.map((sensor) => ({ storeId: store.storeId, target: targetOf(sensor) })))
      .flatMap(({ storeId, target }, index) => (target ? [{ storeId, target, turn: index % CYCLE_HOURS }] : []));
  }

  /** The incidents starting in hour `hour` (hours since the epoch), after the seed only. */
  incidentsOfHour(hour: number): SimulatedIncident[] {
    const cached = this.byHour.get(hour);
    if (cached) return cached;
    const rng = new Rng(`simulation:${hour}`);
    const turn = ((hour % CYCLE_HOURS) + CYCLE_HOURS) % CYCLE_HOURS;
    const nextTurn = (hour + CYCLE_HOURS) * 60;
    const incidents: SimulatedIncident[] = [];
    for (const { storeId, target, turn: own } of this.candidates) {
      if (own !== turn) continue;
      const draw = rng.next();
      const start = hour * 60 + rng.int(0, 59);
      if (draw < EXCURSION_CHANCE) {
        const excursion = randomExcursion(rng, target, start);
        const [from, to] = excursionSpan(excursion);
        const fits = fitsClimate(target, start) && to < nextTurn && quiet(target.curve, from, to) && isClear(target, [], from - 10, to);
        if (fits && start > this.plan.nowMinute) incidents.push({ kind: 'excursion', storeId, sensorId: target.sensorId, excursion });
      } else if (draw < EXCURSION_CHANCE + ERROR_CHANCE) {
        const window = { start, end: start + rng.int(...ERROR_MINUTES) };
        if (quiet(target.curve, window.start, window.end) && start > this.plan.nowMinute) incidents.push({ kind: 'error', storeId, sensorId: target.sensorId, window });
      }
    }
    this.byHour.set(hour, incidents);
    // Hours before the last cycle can no longer touch the minutes asked for next.
    for (const old of this.byHour.keys()) if (old < hour - 2 * CYCLE_HOURS) this.byHour.delete(old);
    return incidents;
  }

  /** The incidents touching minutes [from, to] (one that started up to a cycle earlier may still be releasing). */
  incidentsBetween(from: number, to: number): SimulatedIncident[] {
    const incidents: SimulatedIncident[] = [];
    for (let hour = Math.floor(from / 60) - CYCLE_HOURS; hour <= Math.floor(to / 60); hour++) {
      for (const incident of this.incidentsOfHour(hour)) {
        const touches = incident.kind === 'excursion' ? excursionTouches(incident.excursion, from, to) : windowTouches(incident.window, from, to);
        if (touches) incidents.push(incident);
      }
    }
    return incidents;
  }

  /** The readings of `sensors` (of one store) for minutes [from, to], minute by minute, as the gateway sends them. */
  readings(sensors: readonly PlannedSensor[], from: number, to: number): WireReading[] {
    const incidents = this.incidentsBetween(from, to);
    const evaluators = sensors.map((sensor) => {
      const own = incidents.filter((incident) => incident.sensorId === sensor.sensorId);
      const curve: SensorCurve = {
        ...sensor.curve,
        excursions: [...sensor.curve.excursions, ...own.flatMap((i) => (i.kind === 'excursion' ? [i.excursion] : []))],
        errors: [...sensor.curve.errors, ...own.flatMap((i) => (i.kind === 'error' ? [i.window] : []))],
      };
      return { serialNo: sensor.serialNo, evaluator: new CurveEvaluator(curve) };
    });
    const readings: WireReading[] = [];
    for (let minute = from; minute <= to; minute++) {
      const measuredAt = toCompactDateTime(new Date(minute * MINUTE_MS));
      for (const { serialNo, evaluator } of evaluators) {
        const reading = evaluator.reading(minute);
        if (!reading) continue;
        readings.push({ serial_no: serialNo, measured_at: measuredAt, temperature: reading.temperature, error: reading.error, battery: reading.battery, receive_sensitivity: reading.rssi });
      }
    }
    return readings;
  }
}
