import { ALERT_CODES, type AlertCode } from '~/domain/alert-codes';
import {
  type AlertTransition,
  emptySensorAlertState,
  evaluate,
  evaluateSilence,
  type SensorAlertState,
  type SensorSettings,
  stopAlert,
} from '~/domain/alert-engine';
import type { AlertStopSchedule } from '~/domain/alert-stop-schedule';
import { isInAlertStop } from '~/domain/alert-stop-schedule';
import { CurveEvaluator, EXCURSION_TAIL, type Excursion, inDefrost, MINUTE_MS, type SensorCurve } from './curves';
import type { Climate } from './furniture';
import type { Rng } from './prng';

// The demo's incidents: temperature excursions planned on the curves, and the alert history
// they produce. The history is not invented beside the readings: the real alert engine
// (app/domain/alert-engine.ts) is run over the curve's readings (the TypeScript twin of what
// the database holds) around every incident and over each sensor's last minutes, so alert
// times, temperatures, statuses and the engine state left in sensor_states are exactly what
// the live system would have produced from those readings.

export interface PlannedAlert {
  storeId: string;
  /** The chain-wide sensor number of the plan (null for the store-level gateway alert). */
  sensorId: number | null;
  code: AlertCode;
  alertData1: string | null;
  temperature: number | null;
  lowerLimit: number | null;
  upperLimit: number | null;
  startedAt: Date;
  recoveredAt: Date | null;
  stoppedAt: Date | null;
  stoppedBy: string | null; // login id
  stopComment: string | null;
  lastNotifiedAt: Date | null;
}

/** A user stops the alert `afterMinutes` after it opened (if it is still open then). */
export interface StopDecision {
  afterMinutes: number;
  by: string;
  comment: string;
}

export interface EngineRun {
  state: SensorAlertState;
  alerts: PlannedAlert[];
}

export interface SensorUnderRun {
  storeId: string;
  sensorId: number;
  settings: SensorSettings;
  curve: SensorCurve;
  /** The minutes the sensor has readings for, real or virtual: from its installation to its last reading. */
  installedFrom: number;
  lastMinute: number | null;
}

export interface RunContext {
  schedules: readonly AlertStopSchedule[];
  gatewayDown: boolean;
  nowMinute: number;
  /** Extra silence checks (minutes), besides the ones the plan implies. */
  silenceChecks: readonly number[];
  /** Whether (and when, by whom) a user stops an alert that opened at `openedAt`. */
  decideStop(code: AlertCode, openedAt: number): StopDecision | null;
}

const toDate = (minute: number) => new Date(minute * MINUTE_MS);
/** The last minutes evaluated for every sensor (its state now: damping, pending excursions). */
const FINAL_MINUTES = 20;
/** Minutes evaluated before an incident, for the damping to settle. */
const LEAD_MINUTES = 20;
const NO_COMMUNICATION_MINUTES = 60;

/** The minutes around each incident (and the last ones) where the engine must look; elsewhere the curve is quiet. */
function windowsOf(sensor: SensorUnderRun): [number, number][] {
  const { curve, lastMinute } = sensor;
  if (lastMinute === null) return [];
  const windows: [number, number][] = [];
  for (const ex of curve.excursions) windows.push([ex.start - LEAD_MINUTES, ex.end + 6 * ex.down + 20]);
  for (const w of [...curve.errors, ...curve.gaps]) windows.push([w.start - 5, w.end + 5]);
  const crossing = batteryLowFrom(curve);
  if (crossing !== null) windows.push([crossing - 2, crossing + 2]);
  windows.push([lastMinute - FINAL_MINUTES, lastMinute]);
  const clipped = windows
    .map(([from, to]): [number, number] => [Math.max(from, sensor.installedFrom), Math.min(to, lastMinute)])
    .filter(([from, to]) => from <= to)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const w of clipped) {
    const last = merged[merged.length - 1];
    if (last && w[0] <= last[1] + 1) last[1] = Math.max(last[1], w[1]);
    else merged.push([...w]);
  }
  return merged;
}

/** The first minute at which the drained battery reads 10 % or less, or null when it never does. */
export function batteryLowFrom(curve: SensorCurve): number | null {
  const { level, perDay, at } = curve.battery;
  if (perDay <= 0 || level > 10) return null;
  // battery(m) = floor(level + perDay (at - m) / 1440) ≤ 10  ⇔  m > at - (11 - level) 1440 / perDay
  const evaluator = new CurveEvaluator(curve);
  let minute = Math.floor(at - ((11 - level) * 1440) / perDay) - 2;
  while ((evaluator.reading(minute)?.battery ?? 0) > 10) minute++;
  return minute;
}

/** Runs the alert engine over a sensor's incidents and last minutes; returns its final state and its history. */
export function runEngine(sensor: SensorUnderRun, ctx: RunContext): EngineRun {
  let state = emptySensorAlertState();
  const alerts: PlannedAlert[] = [];
  const open = new Map<AlertCode, PlannedAlert>();
  const stops: { at: number; code: AlertCode; decision: StopDecision }[] = [];

  const apply = (transitions: AlertTransition[]) => {
    for (const tr of transitions) {
      const minute = Math.round(tr.at.getTime() / MINUTE_MS);
      if (tr.type === 'open') {
        const alert: PlannedAlert = {
          storeId: sensor.storeId,
          sensorId: sensor.sensorId,
          code: tr.code,
          alertData1: tr.code === ALERT_CODES.sensorError ? 'ERROR' : tr.temperature === null ? null : tr.temperature.toFixed(1),
          temperature: tr.temperature,
          lowerLimit: tr.lowerLimit,
          upperLimit: tr.upperLimit,
          startedAt: tr.at,
          recoveredAt: null,
          stoppedAt: null,
          stoppedBy: null,
          stopComment: null,
          lastNotifiedAt: tr.notify ? tr.at : null,
        };
        alerts.push(alert);
        open.set(tr.code, alert);
        const decision = ctx.decideStop(tr.code, minute);
        if (decision) stops.push({ at: minute + decision.afterMinutes, code: tr.code, decision });
      } else if (tr.type === 'recover') {
        const alert = open.get(tr.code);
        if (alert) alert.recoveredAt = tr.at;
        open.delete(tr.code);
      } else {
        const alert = open.get(tr.code);
        if (alert) alert.lastNotifiedAt = tr.at;
      }
    }
  };

  const applyStops = (upTo: number) => {
    for (const stop of stops.filter((s) => s.at <= upTo)) {
      stops.splice(stops.indexOf(stop), 1);
      const alert = open.get(stop.code);
      if (!alert || stop.at > ctx.nowMinute) continue;
      state = stopAlert(state, stop.code);
      alert.stoppedAt = toDate(stop.at);
      alert.stoppedBy = stop.decision.by;
      alert.stopComment = stop.decision.comment;
    }
  };

  // Silence checks: after the last reading before each long gap, and the plan's own (a silent sensor).
  const silence = new Set<number>(ctx.silenceChecks);
  for (const gap of sensor.curve.gaps) if (gap.end - gap.start > NO_COMMUNICATION_MINUTES) silence.add(gap.start - 1 + NO_COMMUNICATION_MINUTES);
  const silenceChecks = [...silence].filter((minute) => minute <= ctx.nowMinute).sort((a, b) => a - b);
  const checkSilenceBefore = (minute: number) => {
    while (silenceChecks.length > 0 && silenceChecks[0] < minute) {
      const at = silenceChecks.shift()!;
      applyStops(at);
      const run = evaluateSilence(sensor.settings, state, toDate(at), { stopWindows: ctx.schedules, gatewayDown: ctx.gatewayDown });
      state = run.state;
      apply(run.transitions);
    }
  };
  const evaluator = new CurveEvaluator(sensor.curve);
  const settling = () =>
    state.pendingSince.upper !== null || state.pendingSince.lower !== null ||
    Boolean(state.openAlerts[ALERT_CODES.upperLimit] || state.openAlerts[ALERT_CODES.lowerLimit] || state.openAlerts[ALERT_CODES.sensorError]);

  let cursor = -Infinity;
  for (const [from, to] of windowsOf(sensor)) {
    // A window goes on while an excursion is still pending or open, so recoveries land where they happen.
    for (let minute = Math.max(from, cursor + 1); minute <= to || (settling() && minute <= (sensor.lastMinute ?? to)); minute++) {
      checkSilenceBefore(minute);
      applyStops(minute);
      cursor = minute;
      const reading = evaluator.reading(minute);
      if (!reading) continue;
      const run = evaluate(
        sensor.settings,
        state,
        [{ measuredAt: toDate(minute), temperature: reading.temperature, error: reading.error, battery: reading.battery }],
        { stopWindows: ctx.schedules },
      );
      state = run.state;
      apply(run.transitions);
    }
  }
  checkSilenceBefore(Infinity);
  applyStops(ctx.nowMinute);
  return { state, alerts };
}

// ---- planning excursions ----

export interface ExcursionTarget {
  climate: Climate;
  limits: [number, number];
  curve: SensorCurve;
  sensorId: number;
}

/** Whether [from, to] stays clear of the sensor's defrost ranges and alert-stop windows. */
export function isClear(target: ExcursionTarget, schedules: readonly AlertStopSchedule[], from: number, to: number): boolean {
  for (let m = from; m <= to; m += 5) {
    if (inDefrost(target.curve, m) || isInAlertStop(schedules, target.sensorId, toDate(m))) return false;
  }
  return true;
}

/** The span an excursion affects the readings (start to the end of its release). */
export const excursionSpan = (ex: Excursion): [number, number] => [ex.start, ex.end + EXCURSION_TAIL * ex.down];

/**
 * A plausible incident for a piece of furniture, starting at `start`: a door left open or a
 * struggling compressor (above the upper limit), a case set too cold (below the lower), a
 * warmer whose heater trips (below), or a brief excursion the guard time absorbs.
 */
export function randomExcursion(rng: Rng, target: ExcursionTarget, start: number): Excursion {
  const [lo, hi] = target.limits;
  const base = target.curve.base;
  const round = (x: number) => Math.round(x * 10) / 10;
  switch (target.climate) {
    case 'hot':
      return { start, end: start + rng.int(30, 90), delta: round(lo - base - rng.float(3, 9)), up: rng.int(8, 14), down: 10 };
    case 'frozen':
      return { start, end: start + rng.int(50, 180), delta: round(hi - base + rng.float(2, 7)), up: rng.int(15, 30), down: rng.int(12, 18) };
    default: {
      const kind = rng.weighted([['door', 0.7], ['cold', 0.18], ['brief', 0.12]] as const);
      if (kind === 'cold') return { start, end: start + rng.int(40, 150), delta: round(lo - base - rng.float(0.8, 2.5)), up: rng.int(15, 25), down: rng.int(12, 18) };
      if (kind === 'brief') return { start, end: start + rng.int(4, 8), delta: round(hi - base + rng.float(1, 2)), up: 3, down: 6 };
      return { start, end: start + rng.int(20, 120), delta: round(hi - base + rng.float(1.5, 4.5)), up: rng.int(6, 15), down: rng.int(8, 15) };
    }
  }
}

/** Hot-snack incidents happen while the warmer is on and the shop busy (Japan 09:00-18:00). */
export function fitsClimate(target: ExcursionTarget, start: number): boolean {
  if (target.climate !== 'hot') return true;
  const hour = Math.floor((((start + 540) % 1440) + 1440) % 1440 / 60);
  return hour >= 9 && hour < 18;
}
