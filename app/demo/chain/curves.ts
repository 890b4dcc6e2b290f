import {
  type Bool, type Num,
  add, and, clamp, compileJs, compileJsBool, compileSql, compileSqlBool, div, eq, evaluate, exp, floor, fract, iff, le, lt, max, min, mod, mul, sin, sub, test, v,
} from './expr';

// The demo readings, one formula for both sides. Every sensor's curve is a handful of numbers
// (SensorCurve); the reading at minute m (minutes since the Unix epoch, one reading a minute) is
//
//   base + noise + daily swing + slow wander + compressor cycle + door-opening spikes
//        + defrost bumps (freezers, inside their def_time ranges)
//        - night drop (hot-snack warmers switched off at night)
//        + planned excursions (a failing freezer, a door left open…)
//
// rounded to 0.1 °C, with error readings (temperature null) and gaps (no reading) in planned
// windows, a battery that drains slowly and a noisy BLE signal. The formula is an expression tree
// (expr.ts): readingAt() evaluates it here, curveSql() compiles it for the bulk insert, so the
// database and the planner of alerts cannot disagree. Noise comes from a hash of (minute, seed),
// not from random(): deterministic, identical in both, and safe to run on parallel connections.

/** A temperature excursion: delta °C approached with time constant `up` from `start`, released at `end` with time constant `down`. */
export interface Excursion {
  start: number;
  end: number;
  delta: number;
  up: number;
  down: number;
}

/** Minutes [start, end). */
export interface MinuteWindow {
  start: number;
  end: number;
}

export interface SensorCurve {
  seed: number;
  base: number;
  noise: number;
  dayAmp: number;
  dayPhase: number;
  wanderAmp: number;
  wanderPeriod: number;
  wanderPhase: number;
  cycleAmp: number;
  cyclePeriod: number;
  cyclePhase: number;
  /** °C added when a door opens at the busiest moment (negative for warmers). */
  door: number;
  /** Defrost bumps: `amp` °C inside each range starting at `starts` (Japan minute of day), `length` minutes long. */
  defrost: { amp: number; length: number; starts: number[] } | null;
  /** Warmer switched off at `start` (Japan minute of day) for `length` minutes, dropping by `drop` °C. */
  night: { drop: number; start: number; length: number } | null;
  /** Battery % is `level` at minute `at` and drains `perDay` % a day. */
  battery: { level: number; perDay: number; at: number };
  /** BLE RSSI level (dBm) around which readings scatter by ±3. */
  rssi: number;
  excursions: Excursion[];
  /** Windows of error readings (temperature null, error true). */
  errors: MinuteWindow[];
  /** Windows without readings. */
  gaps: MinuteWindow[];
}

export interface Reading {
  minute: number;
  temperature: number | null;
  error: boolean;
  battery: number;
  rssi: number;
}

export const MINUTE_MS = 60_000;
export const JST_OFFSET_MINUTES = 540;
export const DEFROST_SLOTS = 4;
export const EXCURSION_SLOTS = 2;
/** An excursion's release is exactly zero after end + EXCURSION_TAIL × down. */
export const EXCURSION_TAIL = 30;
const DOOR_SLOT = 12;
const TWO_PI = 2 * Math.PI;

// ---- the flat parameter row (one float8 column per name in SQL) ----

const BASE_COLUMNS = [
  'seed', 'base', 'noise', 'dayAmp', 'dayPhase', 'wanderAmp', 'wanderPeriod', 'wanderPhase',
  'cycleAmp', 'cyclePeriod', 'cyclePhase', 'door', 'defLength', 'nightDrop', 'nightStart', 'nightLength',
  'batteryLevel', 'batteryPerDay', 'batteryAt', 'rssi', 'errorStart', 'errorEnd', 'gapStart', 'gapEnd',
] as const;
const DEFROST_COLUMNS = Array.from({ length: DEFROST_SLOTS }, (_, i) => [`defAmp${i + 1}`, `defStart${i + 1}`]).flat();
const EXCURSION_COLUMNS = Array.from({ length: EXCURSION_SLOTS }, (_, i) =>
  ['Start', 'End', 'Delta', 'Up', 'Down'].map((part) => `ex${i + 1}${part}`),
).flat();

export const CURVE_COLUMNS: readonly string[] = [...BASE_COLUMNS, ...DEFROST_COLUMNS, ...EXCURSION_COLUMNS];
export type CurveRow = Record<string, number>;

/** The window [start, end) has a minute in [from, to]. */
export function windowTouches(window: MinuteWindow, from: number, to: number): boolean {
  return window.start <= to && from < window.end;
}

/** Whether an excursion changes readings anywhere in [from, to]. */
export function excursionTouches(ex: Excursion, from: number, to: number): boolean {
  return ex.start <= to && from < ex.end + EXCURSION_TAIL * ex.down;
}

/** The numbers of a curve for the minutes [from, to]: the excursions touching them fill the slots. */
export function curveRow(curve: SensorCurve, from: number, to: number): CurveRow {
  const row: CurveRow = {
    seed: curve.seed,
    base: curve.base,
    noise: curve.noise,
    dayAmp: curve.dayAmp,
    dayPhase: curve.dayPhase,
    wanderAmp: curve.wanderAmp,
    wanderPeriod: curve.wanderPeriod,
    wanderPhase: curve.wanderPhase,
    cycleAmp: curve.cycleAmp,
    cyclePeriod: curve.cyclePeriod,
    cyclePhase: curve.cyclePhase,
    door: curve.door,
    defLength: curve.defrost?.length ?? 30,
    nightDrop: curve.night?.drop ?? 0,
    nightStart: curve.night?.start ?? 0,
    nightLength: curve.night?.length ?? 0,
    batteryLevel: curve.battery.level,
    batteryPerDay: curve.battery.perDay,
    batteryAt: curve.battery.at,
    rssi: curve.rssi,
    ...windowColumns('error', curve.errors, from, to),
    ...windowColumns('gap', curve.gaps, from, to),
  };
  const starts = curve.defrost?.starts ?? [];
  if (starts.length > DEFROST_SLOTS) throw new Error(`At most ${DEFROST_SLOTS} defrost ranges`);
  for (let i = 0; i < DEFROST_SLOTS; i++) {
    row[`defAmp${i + 1}`] = i < starts.length ? (curve.defrost?.amp ?? 0) : 0;
    row[`defStart${i + 1}`] = starts[i] ?? 0;
  }
  const touching = curve.excursions.filter((ex) => excursionTouches(ex, from, to));
  if (touching.length > EXCURSION_SLOTS) {
    throw new Error(`More than ${EXCURSION_SLOTS} excursions between minutes ${from} and ${to}`);
  }
  for (let i = 0; i < EXCURSION_SLOTS; i++) {
    const ex = touching[i];
    row[`ex${i + 1}Start`] = ex?.start ?? 0;
    row[`ex${i + 1}End`] = ex?.end ?? 0;
    row[`ex${i + 1}Delta`] = ex?.delta ?? 0;
    row[`ex${i + 1}Up`] = ex?.up ?? 1;
    row[`ex${i + 1}Down`] = ex?.down ?? 1;
  }
  return row;
}

/** One slot for error windows and one for gaps: at most one of each may touch [from, to]. */
function windowColumns(prefix: 'error' | 'gap', windows: readonly MinuteWindow[], from: number, to: number): CurveRow {
  const touching = windows.filter((w) => windowTouches(w, from, to));
  if (touching.length > 1) throw new Error(`More than one ${prefix} window between minutes ${from} and ${to}`);
  return { [`${prefix}Start`]: touching[0]?.start ?? 0, [`${prefix}End`]: touching[0]?.end ?? 0 };
}

// ---- the formula ----

const m = v('m');
const P = (name: string): Num => {
  if (!CURVE_COLUMNS.includes(name)) throw new Error(`Unknown curve column ${name}`);
  return v(name);
};

/** A pseudo-random number in [0, 1) from a value and a salt (the classic fract(sin) hash). */
const hash = (x: Num, salt: Num): Num => fract(mul(sin(add(mul(x, 12.9898), mul(salt, 78.233))), 43758.5453));
const square = (x: Num): Num => mul(x, x);

// Terms that depend on the minute only: computed once per minute in SQL, not once per reading.
const minuteOfDay = mod(add(m, JST_OFFSET_MINUTES), 1440);
const hourOfDay = div(minuteOfDay, 60);
const bell = (center: number, width: number): Num => exp(mul(-1, square(div(sub(hourOfDay, center), width))));
/** Chance that a door opens in a 12-minute slot: low at night, peaks at breakfast, lunch and evening. */
const doorRate = add(0.04, mul(0.12, bell(7.8, 1.0)), mul(0.38, bell(12.3, 1.1)), mul(0.42, bell(18.6, 1.6)));
const slot = floor(div(m, DOOR_SLOT));

export const MINUTE_TERMS: Readonly<Record<string, Num>> = {
  md: minuteOfDay,
  doorRate,
  slot,
  slotMinute: sub(m, mul(slot, DOOR_SLOT)),
};
const T = (name: keyof typeof MINUTE_TERMS & string): Num => v(name);

const seed = P('seed');

// Terms of one reading used more than once: computed once per row in SQL (an inner select).
export const ROW_TERMS: Readonly<Record<string, Num>> = {
  /** One draw per reading, for the temperature noise and the RSSI scatter. */
  draw: hash(m, seed),
  /** One draw per sensor and 12-minute slot: whether, when and how hard a door opens. */
  doorDraw: hash(T('slot'), add(seed, 0.25)),
};
const R = (name: keyof typeof ROW_TERMS & string): Num => v(name);

const noise = mul(P('noise'), sub(mul(2, R('draw')), 1));
const daily = mul(P('dayAmp'), sin(add(mul(T('md'), TWO_PI / 1440), P('dayPhase'))));
const wander = mul(P('wanderAmp'), sin(add(div(mul(m, TWO_PI), P('wanderPeriod')), P('wanderPhase'))));
const theta = add(div(mul(m, TWO_PI), P('cyclePeriod')), P('cyclePhase'));
/** Compressor cycling: a skewed wave (slow warm-up, quicker pull-down). */
const cycle = iff(eq(P('cycleAmp'), 0), 0, mul(P('cycleAmp'), add(sin(theta), mul(0.25, sin(mul(2, theta))))));

const doorOffset = floor(mul(fract(mul(R('doorDraw'), 97)), 6));
/** A door opens in this slot with probability doorRate, at a drawn minute, then the air recovers in a few minutes. */
const door = iff(
  eq(P('door'), 0),
  0,
  iff(
    and(lt(R('doorDraw'), T('doorRate')), le(doorOffset, T('slotMinute'))),
    mul(P('door'), add(0.5, fract(mul(R('doorDraw'), 331))), exp(div(sub(T('slotMinute'), doorOffset), -2.5))),
    0,
  ),
);

/**
 * Defrost heaters: the case warms over the first 40 % of the range, holds, and is pulled down
 * again from 55 % to 85 %, so it is back at its level before the range ends; zero outside it.
 */
function defrostBump(i: number): Num {
  const length = P('defLength');
  const t = mod(sub(T('md'), P(`defStart${i}`)), 1440);
  const shape = clamp(min(div(t, mul(0.4, length)), div(sub(mul(0.85, length), t), mul(0.3, length))), 0, 1);
  return iff(eq(P(`defAmp${i}`), 0), 0, mul(P(`defAmp${i}`), shape));
}

/** Warmer off at night: cools towards the room (time constant 45 min), reheats quickly (15 min) when switched on. */
const sinceOff = mod(sub(T('md'), P('nightStart')), 1440);
const night = iff(
  eq(P('nightDrop'), 0),
  0,
  mul(
    -1,
    P('nightDrop'),
    iff(
      lt(sinceOff, P('nightLength')),
      sub(1, exp(div(sinceOff, -45))),
      mul(sub(1, exp(div(P('nightLength'), -45))), exp(div(sub(sinceOff, P('nightLength')), -15))),
    ),
  ),
);

/** Exactly zero before the start and after the tail, so which slot holds an excursion never matters. */
function excursion(i: number): Num {
  const [start, end, delta, up, down] = ['Start', 'End', 'Delta', 'Up', 'Down'].map((part) => P(`ex${i}${part}`));
  return iff(
    eq(delta, 0),
    0,
    iff(
      and(le(start, m), lt(m, add(end, mul(EXCURSION_TAIL, down)))),
      mul(delta, sub(1, exp(div(sub(m, start), mul(-1, up)))), exp(div(max(sub(m, end), 0), mul(-1, down)))),
      0,
    ),
  );
}

const rawTemperature = add(
  P('base'), noise, daily, wander, cycle, door,
  ...Array.from({ length: DEFROST_SLOTS }, (_, i) => defrostBump(i + 1)),
  night,
  ...Array.from({ length: EXCURSION_SLOTS }, (_, i) => excursion(i + 1)),
);

export const CURVE_FORMULA: Readonly<{ temperature: Num; battery: Num; rssi: Num; error: Bool; gap: Bool }> = {
  /** °C rounded half up to one decimal. */
  temperature: div(floor(add(mul(rawTemperature, 10), 0.5)), 10),
  battery: max(0, floor(min(100, add(P('batteryLevel'), div(mul(P('batteryPerDay'), sub(P('batteryAt'), m)), 1440))))),
  rssi: clamp(floor(add(P('rssi'), mul(6, sub(fract(mul(R('draw'), 7919)), 0.5)), 0.5)), -100, -30),
  error: and(le(P('errorStart'), m), lt(m, P('errorEnd'))),
  gap: and(le(P('gapStart'), m), lt(m, P('gapEnd'))),
};

// ---- the TypeScript twin ----

const VARIABLES = ['m', ...CURVE_COLUMNS, ...Object.keys(MINUTE_TERMS), ...Object.keys(ROW_TERMS)];
const slotOf = (name: string): number => {
  const index = VARIABLES.indexOf(name);
  if (index < 0) throw new Error(`Unknown variable ${name}`);
  return index;
};
const compileTerms = (terms: Readonly<Record<string, Num>>) => Object.entries(terms).map(([name, term]) => [slotOf(name), compileJs(term, slotOf)] as const);
const JS = {
  minuteTerms: compileTerms(MINUTE_TERMS),
  rowTerms: compileTerms(ROW_TERMS),
  temperature: compileJs(CURVE_FORMULA.temperature, slotOf),
  battery: compileJs(CURVE_FORMULA.battery, slotOf),
  rssi: compileJs(CURVE_FORMULA.rssi, slotOf),
  error: compileJsBool(CURVE_FORMULA.error, slotOf),
  gap: compileJsBool(CURVE_FORMULA.gap, slotOf),
};
const SLOT_M = slotOf('m');
const [SLOT_ERROR_START, SLOT_ERROR_END, SLOT_GAP_START, SLOT_GAP_END] = ['errorStart', 'errorEnd', 'gapStart', 'gapEnd'].map(slotOf);
const EXCURSION_SLOT_INDEX = Array.from({ length: EXCURSION_SLOTS }, (_, i) => ({
  start: slotOf(`ex${i + 1}Start`),
  end: slotOf(`ex${i + 1}End`),
  delta: slotOf(`ex${i + 1}Delta`),
  up: slotOf(`ex${i + 1}Up`),
  down: slotOf(`ex${i + 1}Down`),
}));

const EMPTY_EXCURSION: Excursion = { start: 0, end: 0, delta: 0, up: 1, down: 1 };

function setExcursionSlot(values: Float64Array, slot: number, ex: Excursion): void {
  const at = EXCURSION_SLOT_INDEX[slot];
  values[at.start] = ex.start;
  values[at.end] = ex.end;
  values[at.delta] = ex.delta;
  values[at.up] = ex.up;
  values[at.down] = ex.down;
}

/**
 * Evaluates a curve minute by minute in TypeScript: the formula compiled to closures over a
 * vector of its variables. The excursion, error and gap slots are filled per minute, so any
 * number of them may lie along the curve (SQL takes them chunk by chunk).
 */
export class CurveEvaluator {
  private readonly values = new Float64Array(VARIABLES.length);

  constructor(private readonly curve: SensorCurve) {
    const base = curveRow({ ...curve, excursions: [], errors: [], gaps: [] }, 0, 0);
    for (const name of CURVE_COLUMNS) this.values[slotOf(name)] = base[name];
  }

  private load(minute: number): Float64Array {
    const values = this.values;
    const { excursions, errors, gaps } = this.curve;
    let slot = 0;
    for (const ex of excursions) {
      if (!excursionTouches(ex, minute, minute)) continue;
      if (slot === EXCURSION_SLOTS) throw new Error(`More than ${EXCURSION_SLOTS} excursions at minute ${minute}`);
      setExcursionSlot(values, slot++, ex);
    }
    for (; slot < EXCURSION_SLOTS; slot++) setExcursionSlot(values, slot, EMPTY_EXCURSION);
    const error = errors.find((w) => w.start <= minute && minute < w.end);
    values[SLOT_ERROR_START] = error?.start ?? 0;
    values[SLOT_ERROR_END] = error?.end ?? 0;
    const gap = gaps.find((w) => w.start <= minute && minute < w.end);
    values[SLOT_GAP_START] = gap?.start ?? 0;
    values[SLOT_GAP_END] = gap?.end ?? 0;
    values[SLOT_M] = minute;
    for (const [slot, term] of JS.minuteTerms) values[slot] = term(values);
    for (const [slot, term] of JS.rowTerms) values[slot] = term(values);
    return values;
  }

  /** The reading at `minute`, or null when the curve has a gap there. */
  reading(minute: number): Reading | null {
    const values = this.load(minute);
    if (JS.gap(values)) return null;
    const error = JS.error(values);
    return { minute, temperature: error ? null : JS.temperature(values), error, battery: JS.battery(values), rssi: JS.rssi(values) };
  }
}

/** The reading at `minute`, or null when the curve has a gap there. */
export function readingAt(curve: SensorCurve, minute: number): Reading | null {
  return new CurveEvaluator(curve).reading(minute);
}

/** The readings of minutes [from, to], gaps left out. */
export function readingsBetween(curve: SensorCurve, from: number, to: number): Reading[] {
  const evaluator = new CurveEvaluator(curve);
  const readings: Reading[] = [];
  for (let minute = from; minute <= to; minute++) {
    const reading = evaluator.reading(minute);
    if (reading) readings.push(reading);
  }
  return readings;
}

/** The formula evaluated by walking the tree (slow; the reference the compiled forms are checked against). */
export function referenceReadingAt(curve: SensorCurve, minute: number): Reading | null {
  const values: Record<string, number> = { ...curveRow(curve, minute, minute), m: minute };
  const env = (name: string): number => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for ${name}`);
    return value;
  };
  for (const [name, term] of Object.entries(MINUTE_TERMS)) values[name] = evaluate(term, env);
  for (const [name, term] of Object.entries(ROW_TERMS)) values[name] = evaluate(term, env);
  if (test(CURVE_FORMULA.gap, env)) return null;
  const error = test(CURVE_FORMULA.error, env);
  return {
    minute,
    temperature: error ? null : evaluate(CURVE_FORMULA.temperature, env),
    error,
    battery: evaluate(CURVE_FORMULA.battery, env),
    rssi: evaluate(CURVE_FORMULA.rssi, env),
  };
}

/** Whether a minute lies in one of the curve's defrost ranges (Japan wall clock). */
export function inDefrost(curve: SensorCurve, minute: number): boolean {
  if (!curve.defrost) return false;
  const md = (((minute + JST_OFFSET_MINUTES) % 1440) + 1440) % 1440;
  const { starts, length } = curve.defrost;
  return starts.some((start) => {
    const t = (md - start + 1440) % 1440;
    return t < length;
  });
}

/** The furthest the undisturbed curve strays above and below its base (no defrost, night or excursion). */
export function maxDeviation(curve: Pick<SensorCurve, 'noise' | 'dayAmp' | 'wanderAmp' | 'cycleAmp' | 'door'>): { up: number; down: number } {
  // sin θ + ¼ sin 2θ peaks at about ±1.18; a door spike is at most 1.5 × door.
  const common = curve.noise + curve.dayAmp + curve.wanderAmp + 1.18 * curve.cycleAmp;
  return { up: common + Math.max(0, 1.5 * curve.door), down: common + Math.max(0, -1.5 * curve.door) };
}

// ---- the SQL side ----

export interface CurveSql {
  /** The per-minute terms, compiled against the integer minute `minute`. */
  minuteTerms: { name: string; sql: string }[];
  /** The per-reading shared terms, compiled against the columns. */
  rowTerms: { name: string; sql: string }[];
  temperature: string;
  battery: string;
  rssi: string;
  error: string;
  gap: string;
}

/**
 * The formula compiled to SQL in three stages: per-minute terms (from the integer minute
 * `minute`), per-reading shared terms and the outputs, both reading `column(name)` for curve
 * parameters, minute terms, row terms and `m` (the minute as float8, a column of the minute stage).
 */
export function curveSql(options: { minute: string; column: (name: string) => string }): CurveSql {
  const known = new Set(['m', ...CURVE_COLUMNS, ...Object.keys(MINUTE_TERMS), ...Object.keys(ROW_TERMS)]);
  const columns = (name: string) => {
    if (!known.has(name)) throw new Error(`Unknown variable ${name}`);
    return options.column(name);
  };
  const minuteOnly = (name: string) => {
    if (name !== 'm') throw new Error(`Minute terms read only the minute, not ${name}`);
    return `(${options.minute})::float8`;
  };
  const compileAll = (terms: Readonly<Record<string, Num>>, names: (name: string) => string) =>
    Object.entries(terms).map(([name, term]) => ({ name, sql: compileSql(term, names) }));
  return {
    minuteTerms: compileAll(MINUTE_TERMS, minuteOnly),
    rowTerms: compileAll(ROW_TERMS, columns),
    temperature: compileSql(CURVE_FORMULA.temperature, columns),
    battery: compileSql(CURVE_FORMULA.battery, columns),
    rssi: compileSql(CURVE_FORMULA.rssi, columns),
    error: compileSqlBool(CURVE_FORMULA.error, columns),
    gap: compileSqlBool(CURVE_FORMULA.gap, columns),
  };
}
