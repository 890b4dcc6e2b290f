// The alert engine: pure functions from a sensor's settings, its previous state and new readings
// (or a time `now`, for silence) to its next state and the transitions to persist and notify.
// No database, no clock, no logger. Decisions where the specifications are silent are in
// docs/decisions/010-alert-engine.md.
//
// Per sensor and per code an alert is normal, pending (a temperature excursion whose guard time
// runs: `pendingSince`), alerting (`openAlerts[code]`), or stopped (open with `stopped`); a silent
// sensor is alerting on OE00000005 until its next reading.
import { z } from 'zod';
import { ALERT_CODES, ALL_ALERT_CODES, type AlertCode } from './alert-codes';
import { type AlertStopSchedule, isInAlertStop } from './alert-stop-schedule';
import { isInDefrost } from './defrost';
import { SENSOR_STATUS, type SensorStatus } from './sensor-status';
import { WORKING_STATE } from './working-state';
import type { DayRange } from './japan-time';

export const DEFAULT_TIME_CONSTANT_PERCENT = 100;
export const DEFAULT_NO_COMMUNICATION_MINUTES = 60;
/** tau at a time constant of 100 %. */
const BASE_TAU_MINUTES = 10;
/** The gateways' sampling interval (protocol default 60 s): the longest a reading is taken to have held before it was taken. */
export const DEFAULT_READING_INTERVAL_MINUTES = 1;
/** A temperature alert recovers only this far back inside its limit, in tenths of °C (0.5 °C). */
const RECOVERY_MARGIN_TENTHS = 5;
/** Battery low opens at or below this percentage … */
export const BATTERY_LOW_PERCENT = 10;
/** … and recovers only above this one, so a battery hovering around 10 % does not mail every minute. */
export const BATTERY_RECOVERED_PERCENT = 15;

export interface SensorSettings {
  equipmentId: number;
  lowerLimit: number | null; // °C; null: no limit on that side
  upperLimit: number | null;
  guardTime: number | null; // minutes; null or 0 opens at once
  snoozingTime: number | null; // minutes; null: no re-notification
  timeConstant: number | null; // % of 10 minutes; null is 100 %
  defrostRanges: readonly DayRange[];
  noCommunicationMinutes?: number; // default 60
  readingIntervalMinutes?: number; // default 1: how long one reading stands for in the damping
}

export interface Reading {
  measuredAt: Date;
  temperature: number | null; // °C; null when the sensor could not take it
  error: boolean;
  battery: number | null; // %
}

export interface OpenAlert {
  openedAt: string; // ISO
  lastNotifiedAt: string; // ISO: the opening or the latest re-notification
  stopped: boolean; // stopped by a user: still active, never re-notified
  peak: number | null; // worst raw value while open: highest (upper), lowest (lower, battery); null otherwise
}

/** Plain JSON (stored in sensor_states.engine_state); parse stored values with SensorAlertStateSchema. */
export interface SensorAlertState {
  lastMeasuredAt: string | null; // ISO; readings at or before it are ignored
  dampedTemperature: number | null; // °C, full precision; null before the first valid reading and after an error or silence
  pendingSince: { upper: string | null; lower: string | null }; // ISO of the first reading of the current excursion
  openAlerts: Partial<Record<AlertCode, OpenAlert>>;
}

export type TransitionType = 'open' | 'recover' | 'renotify';

export interface AlertTransition {
  type: TransitionType;
  code: AlertCode;
  at: Date; // the reading's measured_at, or `now` for silence
  notify: boolean; // false only for a recovery inside an alert-stop window: history row, no mail
  temperature: number | null; // the raw reading
  dampedTemperature: number | null; // the value checked against the limits, 0.1 °C
  battery: number | null;
  lowerLimit: number | null;
  upperLimit: number | null;
  peak: number | null; // the alert's worst raw value so far (see OpenAlert)
}

export interface EvaluationContext {
  stopWindows: readonly AlertStopSchedule[]; // the store's alert-stop schedules
}

export interface SilenceContext extends EvaluationContext {
  gatewayDown: boolean; // the store-level alert replaces per-sensor OE00000005 while the gateway is silent
}

export interface Evaluation {
  state: SensorAlertState;
  transitions: AlertTransition[];
}

const isoString = z.string().datetime();
const OpenAlertSchema = z.object({ openedAt: isoString, lastNotifiedAt: isoString, stopped: z.boolean(), peak: z.number().nullable() });

/** Parses a stored state; the column's default `{}` reads as a sensor never evaluated. */
export const SensorAlertStateSchema: z.ZodType<SensorAlertState, z.ZodTypeDef, unknown> = z.object({
  lastMeasuredAt: isoString.nullable().default(null),
  dampedTemperature: z.number().nullable().default(null),
  pendingSince: z.object({ upper: isoString.nullable(), lower: isoString.nullable() }).default({ upper: null, lower: null }),
  openAlerts: z.record(z.enum(ALL_ALERT_CODES as [AlertCode, ...AlertCode[]]), OpenAlertSchema).default({}),
});

export function emptySensorAlertState(): SensorAlertState {
  return { lastMeasuredAt: null, dampedTemperature: null, pendingSince: { upper: null, lower: null }, openAlerts: {} };
}

/**
 * Evaluates new readings in measured_at order. Readings at or before the last evaluated one are
 * ignored, so a backlog uploaded after an outage produces the same transitions as live data.
 */
export function evaluate(settings: SensorSettings, previous: SensorAlertState, readings: readonly Reading[], context: EvaluationContext): Evaluation {
  const state = structuredClone(previous);
  const transitions = readingsAfter(previous.lastMeasuredAt, readings).flatMap((reading) => evaluateReading(settings, state, reading, context));
  return { state, transitions };
}

/**
 * Called by the worker every minute: opens OE00000005 once the last reading is
 * noCommunicationMinutes old (not inside a stop window, not while the gateway is down), and
 * re-notifies it every snoozing_time. A sensor that never reported raises nothing.
 */
export function evaluateSilence(settings: SensorSettings, previous: SensorAlertState, now: Date, context: SilenceContext): Evaluation {
  const state = structuredClone(previous);
  if (context.gatewayDown || previous.lastMeasuredAt === null) return { state, transitions: [] };
  const inStop = isInAlertStop(context.stopWindows, settings.equipmentId, now);
  const facts = silenceFacts(settings);
  if (state.openAlerts[ALERT_CODES.noCommunication]) return { state, transitions: renotifyDue([ALERT_CODES.noCommunication], settings, state, now, inStop, facts) };
  if (inStop || minutesBetween(previous.lastMeasuredAt, now) < noCommunicationMinutes(settings)) return { state, transitions: [] };
  // Without readings nothing is known about the excursion or the damping: both restart with the next reading.
  state.dampedTemperature = null;
  state.pendingSince = { upper: null, lower: null };
  return { state, transitions: [openAlert(state, ALERT_CODES.noCommunication, now, facts, null)] };
}

/** A user stopped the alert (POST /v1/alert_history): it stays active but is never re-notified. No-op when not open. */
export function stopAlert(state: SensorAlertState, code: AlertCode): SensorAlertState {
  const open = state.openAlerts[code];
  if (!open) return state;
  return { ...state, openAlerts: { ...state.openAlerts, [code]: { ...open, stopped: true } } };
}

// ---- one reading ---------------------------------------------------------------------------

/** What a transition reports about the reading that caused it. */
type Facts = Omit<AlertTransition, 'type' | 'code' | 'at' | 'notify' | 'peak'>;

interface Moment {
  at: Date;
  reading: Reading;
  inStop: boolean; // inside an alert-stop window for this sensor
  checkedTenths: number | null; // damped temperature at the sensor's 0.1 °C resolution; null on an error reading
  facts: Facts;
}

function readingsAfter(lastMeasuredAt: string | null, readings: readonly Reading[]): Reading[] {
  let last = lastMeasuredAt === null ? -Infinity : Date.parse(lastMeasuredAt);
  return [...readings]
    .sort((a, b) => a.measuredAt.getTime() - b.measuredAt.getTime())
    .filter((reading) => {
      const fresh = reading.measuredAt.getTime() > last;
      if (fresh) last = reading.measuredAt.getTime();
      return fresh;
    });
}

function evaluateReading(settings: SensorSettings, state: SensorAlertState, reading: Reading, context: EvaluationContext): AlertTransition[] {
  const moment = observe(settings, state, reading, context);
  updatePeaks(state, reading);
  const transitions = [
    ...recoverNoCommunication(state, moment),
    ...evaluateSensorError(state, moment),
    ...evaluateLimit(UPPER, settings, state, moment),
    ...evaluateLimit(LOWER, settings, state, moment),
    ...evaluateBattery(state, moment),
    ...renotifyDue(ALL_ALERT_CODES, settings, state, moment.at, moment.inStop, moment.facts),
  ];
  state.lastMeasuredAt = moment.at.toISOString();
  return transitions;
}

/** Updates the damping (restarting it and any excursion after an error or a gap) and describes the moment. */
function observe(settings: SensorSettings, state: SensorAlertState, reading: Reading, context: EvaluationContext): Moment {
  const at = reading.measuredAt;
  const raw = isError(reading) ? null : reading.temperature;
  const previous = continuedDamping(settings, state, at);
  if (raw === null || previous === null) state.pendingSince = { upper: null, lower: null };
  state.dampedTemperature = raw === null ? null : previous === null ? raw : damp(previous.damped, raw, previous.elapsedMinutes, settings);
  const checkedTenths = state.dampedTemperature === null ? null : Math.round(state.dampedTemperature * 10);
  return {
    at,
    reading,
    inStop: isInAlertStop(context.stopWindows, settings.equipmentId, at),
    checkedTenths,
    facts: {
      temperature: raw,
      dampedTemperature: checkedTenths === null ? null : checkedTenths / 10,
      battery: reading.battery,
      lowerLimit: settings.lowerLimit,
      upperLimit: settings.upperLimit,
    },
  };
}

function isError(reading: Reading): boolean {
  return reading.error || reading.temperature === null;
}

/**
 * The damping to continue from, or null to start afresh (damped = raw, excursions restart): the
 * first reading, the first after an error or silence, the first after a no-communication gap.
 */
function continuedDamping(settings: SensorSettings, state: SensorAlertState, at: Date): { damped: number; elapsedMinutes: number } | null {
  if (state.dampedTemperature === null || state.lastMeasuredAt === null) return null;
  const elapsedMinutes = minutesBetween(state.lastMeasuredAt, at);
  return elapsedMinutes < noCommunicationMinutes(settings) ? { damped: state.dampedTemperature, elapsedMinutes } : null;
}

/**
 * First-order lag with tau = 10 min x time_constant / 100, in its exact discrete form. A reading
 * stands for at most one sampling interval: over a longer gap the simulated product holds the
 * last value (a silence is no evidence of the next reading's value), so a spike after a silence
 * moves it only as much as the spike itself lasted (decision 240).
 */
export function damp(previous: number, raw: number, elapsedMinutes: number, settings: Pick<SensorSettings, 'timeConstant' | 'readingIntervalMinutes'>): number {
  const tau = (BASE_TAU_MINUTES * (settings.timeConstant ?? DEFAULT_TIME_CONSTANT_PERCENT)) / 100;
  const credited = Math.min(elapsedMinutes, settings.readingIntervalMinutes ?? DEFAULT_READING_INTERVAL_MINUTES);
  return previous + (raw - previous) * (1 - Math.exp(-credited / tau));
}

// ---- rules ---------------------------------------------------------------------------------

/** Any reading ends a no-communication alert, never before the alert's own opening (a late reading). */
function recoverNoCommunication(state: SensorAlertState, moment: Moment): AlertTransition[] {
  const open = state.openAlerts[ALERT_CODES.noCommunication];
  if (!open) return [];
  const at = new Date(Math.max(moment.at.getTime(), Date.parse(open.openedAt)));
  return [recoverAlert(state, ALERT_CODES.noCommunication, at, !moment.inStop, moment.facts)];
}

function evaluateSensorError(state: SensorAlertState, moment: Moment): AlertTransition[] {
  const code = ALERT_CODES.sensorError;
  const open = state.openAlerts[code];
  if (!isError(moment.reading)) return open ? [recoverAlert(state, code, moment.at, !moment.inStop, moment.facts)] : [];
  return open || moment.inStop ? [] : [openAlert(state, code, moment.at, moment.facts, null)];
}

interface LimitSide {
  code: AlertCode;
  side: 'upper' | 'lower';
  limitOf(settings: SensorSettings): number | null;
  isOutside(valueTenths: number, limitTenths: number): boolean;
  isBackInside(valueTenths: number, limitTenths: number): boolean; // with the recovery margin
}

const UPPER: LimitSide = {
  code: ALERT_CODES.upperLimit,
  side: 'upper',
  limitOf: (settings) => settings.upperLimit,
  isOutside: (value, limit) => value > limit,
  isBackInside: (value, limit) => value <= limit - RECOVERY_MARGIN_TENTHS,
};

const LOWER: LimitSide = {
  code: ALERT_CODES.lowerLimit,
  side: 'lower',
  limitOf: (settings) => settings.lowerLimit,
  isOutside: (value, limit) => value < limit,
  isBackInside: (value, limit) => value >= limit + RECOVERY_MARGIN_TENTHS,
};

/**
 * Guard time, defrost and stop windows for one side. An open alert recovers only on a value back
 * inside by the margin (or when its limit was removed); an error reading or defrost keeps it open.
 * An excursion is pending from its first reading; defrost resets it; a stop window only holds it,
 * so it opens at the first reading after the window once the guard time has elapsed.
 */
function evaluateLimit(side: LimitSide, settings: SensorSettings, state: SensorAlertState, moment: Moment): AlertTransition[] {
  const limit = side.limitOf(settings);
  const limitTenths = limit === null ? null : Math.round(limit * 10);
  const value = moment.checkedTenths;
  if (state.openAlerts[side.code]) {
    const recovered = limitTenths === null || (value !== null && side.isBackInside(value, limitTenths));
    return recovered ? [recoverAlert(state, side.code, moment.at, !moment.inStop, moment.facts)] : [];
  }
  if (value === null || limitTenths === null || !side.isOutside(value, limitTenths) || isInDefrost(settings.defrostRanges, moment.at)) {
    state.pendingSince[side.side] = null;
    return [];
  }
  const since = state.pendingSince[side.side] ?? moment.at.toISOString();
  state.pendingSince[side.side] = since;
  if (moment.inStop || minutesBetween(since, moment.at) < (settings.guardTime ?? 0)) return [];
  state.pendingSince[side.side] = null;
  return [openAlert(state, side.code, moment.at, moment.facts, moment.facts.temperature)];
}

/** A reading without a battery value leaves the battery alert as it is. */
function evaluateBattery(state: SensorAlertState, moment: Moment): AlertTransition[] {
  const code = ALERT_CODES.batteryLow;
  const battery = moment.reading.battery;
  if (battery === null) return [];
  if (state.openAlerts[code]) return battery > BATTERY_RECOVERED_PERCENT ? [recoverAlert(state, code, moment.at, !moment.inStop, moment.facts)] : [];
  return battery <= BATTERY_LOW_PERCENT && !moment.inStop ? [openAlert(state, code, moment.at, moment.facts, battery)] : [];
}

/** Re-notifies each open, unstopped alert among `codes` whose last notification is snoozing_time old; never inside a stop window. */
function renotifyDue(codes: readonly AlertCode[], settings: SensorSettings, state: SensorAlertState, at: Date, inStop: boolean, facts: Facts): AlertTransition[] {
  const snooze = settings.snoozingTime;
  if (!snooze || inStop) return [];
  return openAlertEntries(state)
    .filter(([code, alert]) => codes.includes(code) && !alert.stopped && minutesBetween(alert.lastNotifiedAt, at) >= snooze)
    .map(([code, alert]) => {
      alert.lastNotifiedAt = at.toISOString();
      return { type: 'renotify', code, at, notify: true, ...facts, peak: alert.peak };
    });
}

interface PeakRule {
  valueOf(reading: Reading): number | null;
  worse(a: number, b: number): number;
}

const rawTemperature = (reading: Reading) => (isError(reading) ? null : reading.temperature);

const PEAK_RULES: Partial<Record<AlertCode, PeakRule>> = {
  [ALERT_CODES.upperLimit]: { valueOf: rawTemperature, worse: Math.max },
  [ALERT_CODES.lowerLimit]: { valueOf: rawTemperature, worse: Math.min },
  [ALERT_CODES.batteryLow]: { valueOf: (reading) => reading.battery, worse: Math.min },
};

/** The worst raw value of each open alert, updated before the rules so a recovery reports the whole excursion. */
function updatePeaks(state: SensorAlertState, reading: Reading): void {
  for (const [code, alert] of openAlertEntries(state)) {
    const rule = PEAK_RULES[code];
    const value = rule?.valueOf(reading) ?? null;
    if (rule && value !== null && alert.peak !== null) alert.peak = rule.worse(alert.peak, value);
  }
}

// ---- transitions ---------------------------------------------------------------------------

function openAlert(state: SensorAlertState, code: AlertCode, at: Date, facts: Facts, peak: number | null): AlertTransition {
  state.openAlerts[code] = { openedAt: at.toISOString(), lastNotifiedAt: at.toISOString(), stopped: false, peak };
  return { type: 'open', code, at, notify: true, ...facts, peak };
}

function recoverAlert(state: SensorAlertState, code: AlertCode, at: Date, notify: boolean, facts: Facts): AlertTransition {
  const peak = state.openAlerts[code]?.peak ?? null;
  delete state.openAlerts[code];
  return { type: 'recover', code, at, notify, ...facts, peak };
}

function silenceFacts(settings: SensorSettings): Facts {
  return { temperature: null, dampedTemperature: null, battery: null, lowerLimit: settings.lowerLimit, upperLimit: settings.upperLimit };
}

function openAlertEntries(state: SensorAlertState): [AlertCode, OpenAlert][] {
  return Object.entries(state.openAlerts) as [AlertCode, OpenAlert][];
}

function noCommunicationMinutes(settings: SensorSettings): number {
  return settings.noCommunicationMinutes ?? DEFAULT_NO_COMMUNICATION_MINUTES;
}

function minutesBetween(from: string | Date, to: Date): number {
  const fromMs = typeof from === 'string' ? Date.parse(from) : from.getTime();
  return (to.getTime() - fromMs) / 60_000;
}

// ---- store level and status ----------------------------------------------------------------

export interface GatewayTransition {
  type: 'open' | 'recover';
  code: typeof ALERT_CODES.noCommunication; // recorded with equipment_id null
  at: Date;
}

/**
 * The store-level no-communication alert: the gateway is down once its last contact is
 * thresholdMinutes old, and up again at its next contact. A gateway never heard from is not down
 * (the store is still waiting for its first communication).
 */
export function evaluateGatewaySilence(
  lastGatewayContactAt: Date | null,
  now: Date,
  thresholdMinutes: number,
  previousDown: boolean,
): { down: boolean; transition?: GatewayTransition } {
  const code = ALERT_CODES.noCommunication;
  const silent = lastGatewayContactAt !== null && minutesBetween(lastGatewayContactAt, now) >= thresholdMinutes;
  if (silent === previousDown) return { down: previousDown };
  if (silent) return { down: true, transition: { type: 'open', code, at: now } };
  return { down: false, transition: { type: 'recover', code, at: lastGatewayContactAt ?? now } };
}

export interface StoreConnection {
  workingState: number | null;
  gatewayDown: boolean;
}

/**
 * The gateway spoke (an upload arrived at `now`): a store waiting for its first communication
 * starts operating, and a store whose gateway was down recovers its store-level alert, at the
 * contact. The opening side is evaluateGatewaySilence.
 */
export function evaluateGatewayContact(previous: StoreConnection, now: Date): StoreConnection & { transition?: GatewayTransition } {
  const workingState = previous.workingState === WORKING_STATE.waitingForFirstCommunication ? WORKING_STATE.operating : previous.workingState;
  if (!previous.gatewayDown) return { workingState, gatewayDown: false };
  return { workingState, gatewayDown: false, transition: { type: 'recover', code: ALERT_CODES.noCommunication, at: now } };
}


export interface SensorAlertSummary {
  status: SensorStatus; // 2: an open alert other than battery low; 1: battery low or a pending excursion; 0: normal
  openCodes: AlertCode[];
  pendingCodes: AlertCode[]; // temperature excursions whose guard time runs (or held by a stop window)
}

export function sensorAlertSummary(state: SensorAlertState): SensorAlertSummary {
  const openCodes = ALL_ALERT_CODES.filter((code) => state.openAlerts[code]);
  const pendingCodes = [UPPER, LOWER].filter((side) => state.pendingSince[side.side] !== null).map((side) => side.code);
  return { status: statusOf(openCodes, pendingCodes), openCodes, pendingCodes };
}

function statusOf(openCodes: readonly AlertCode[], pendingCodes: readonly AlertCode[]): SensorStatus {
  if (openCodes.some((code) => code !== ALERT_CODES.batteryLow)) return SENSOR_STATUS.error;
  return openCodes.length > 0 || pendingCodes.length > 0 ? SENSOR_STATUS.warning : SENSOR_STATUS.normal;
}

