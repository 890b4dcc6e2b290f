// Pure rules of the sensor image and list views (000 §2, §4, §5, §9): the wire shape of a
// store's sensors, their default and column orders, DEF, the warning icon, the popup side, the
// status texts and the sparkline. Decisions: docs/decisions/020-sensor-views.md.
import { type AlertCode, alertText, isAlertCode, isTemperatureAlert, type Language } from './alert-codes';
import { roundTenth } from './format';
import { parseCompact } from './japan-time';
import type { SensorTemperature } from './levels';
import type { StoppableAlertView } from './alert-history';
import { isSensorError, isSensorWarning, SENSOR_STATUS, type SensorStatus } from './sensor-status';
import { ja } from './texts/ja';

export type { SensorStatus };

/** One sensor of GET /v1/store_sensors: the specification's fields, then our extension (decision 020). */
export interface StoreSensor {
  equipment_id: number;
  equipment_name: string;
  icon_kind: number;
  location_no: number | null;
  lower_limit: number | null;
  upper_limit: number | null;
  /** The most important open alert (ALERT_IMPORTANCE), or null. */
  alert_id: AlertCode | null;
  position_x: number;
  position_y: number;
  // ---- extension: the live state, so a view is one query ----
  disp_flg: number;
  serial_no: string;
  guard_time: number | null;
  snoozing_time: number | null;
  /** 0 none, 1 warning (guard time running or battery low), 2 error (an open alert). */
  status: SensorStatus;
  /** Open and pending alerts, in code order. */
  alerts: { alert_id: AlertCode }[];
  /** The latest reading: °C, ERROR, DEF (inside a defrost range) or null (never reported). */
  temperature: SensorTemperature;
  /** YYYYMMDDHHmmss (Japan time) of the latest reading, or null. */
  measured_at: string | null;
  battery: number | null;
  receive_sensitivity: number | null;
}

/** The popup's "today" (/resources/sensor-today): the alerts started today and a sparkline of the day's readings. */
export interface SensorToday {
  equipment_id: number;
  /** YYYYMMDD, Japan time. */
  day: string;
  alert_count: number;
  points: SparkPoint[];
}

/** What the sensor pop-up fetches when it opens: today, and the alerts it offers to stop. */
export type SensorPopupData = SensorToday & { open_alerts: StoppableAlertView[] };

export interface StoreSensors {
  store_id: string;
  store_name: string;
  sensors: StoreSensor[];
}

export const NO_ALERT_TEXT = ja.noAlert;
export const NO_SENSOR_TEXT = 'センサが登録されていません';

/**
 * Which open alert a sensor shows first when it has several: a sensor that cannot measure
 * (error, silence) says more than a limit, a limit more than a battery.
 */
export const ALERT_IMPORTANCE: readonly AlertCode[] = ['OE00000004', 'OE00000005', 'OE00000001', 'OE00000002', 'OE00000003'];

export function mostImportantAlert(codes: readonly string[]): AlertCode | null {
  return ALERT_IMPORTANCE.find((code) => codes.includes(code)) ?? null;
}

/** Open and pending codes, each once, in code order (the order of the alert texts). */
export function sensorAlertCodes(open: readonly string[], pending: readonly string[] = []): AlertCode[] {
  return [...new Set([...open, ...pending])].filter(isAlertCode).sort();
}

/**
 * The temperature of a reading on the wire: ERROR for an error reading (even inside defrost:
 * the fault is real), DEF inside a defrost range when asked (convert_def=1), else the value
 * rounded to 0.1 °C, or null when there is none.
 */
export function readingTemperature(reading: { temperature: number | null; error: boolean }, inDefrost: boolean, convertDef: boolean): SensorTemperature {
  if (reading.error) return 'ERROR';
  if (convertDef && inDefrost) return 'DEF';
  if (reading.temperature === null) return null;
  return roundTenth(reading.temperature);
}

/**
 * The warning icon of a sensor (000 §4): status 1 one icon, 2 another, none at 0. It is
 * suppressed when the temperature is DEF and the only alerts after the first (code order) are
 * temperature alerts, read literally: a DEF sensor with one alert of any kind, or with upper
 * and lower, shows none; one with a temperature alert and a battery alert still shows it.
 */
export function warningSeverity(status: number, temperature: SensorTemperature, alerts: readonly AlertCode[]): 1 | 2 | null {
  if (!isSensorWarning(status) && !isSensorError(status)) return null;
  if (temperature === 'DEF' && alerts.slice(1).every(isTemperatureAlert)) return null;
  return isSensorError(status) ? SENSOR_STATUS.error : SENSOR_STATUS.warning;
}

/** Each distinct alert text once (000 §8), in the order of the codes. */
export function alertTexts(alerts: readonly AlertCode[], status: number, language: Language): string[] {
  return [...new Set(alerts.map((code) => alertText(code, language, status)))];
}

/** The popup's status line: the alert texts, or the message that there is currently no alarm. */
export function statusTexts(alerts: readonly AlertCode[], status: number, language: Language): string[] {
  return alerts.length === 0 ? [NO_ALERT_TEXT] : alertTexts(alerts, status, language);
}

/** 000 §3: location_no null shows 00, otherwise two digits. */
export function locationLabel(locationNo: number | null): string {
  return String(locationNo ?? 0).padStart(2, '0');
}

// ---- orders --------------------------------------------------------------------------------

type Sortable = Pick<StoreSensor, 'equipment_id' | 'equipment_name' | 'icon_kind' | 'location_no' | 'lower_limit' | 'status' | 'alerts'>;

const collator = new Intl.Collator('ja');

/** Ascending with nulls last, whatever the direction of the caller. */
function compareNullable(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

/** 000 §5/§9: sensors by lower limit ascending (no limit last), then location number, then id. */
export function compareDefault(a: Sortable, b: Sortable): number {
  return compareNullable(a.lower_limit, b.lower_limit) || compareNullable(a.location_no ?? 0, b.location_no ?? 0) || a.equipment_id - b.equipment_id;
}

export function sortDefault<T extends Sortable>(sensors: readonly T[]): T[] {
  return [...sensors].sort(compareDefault);
}

export const SORT_KEYS = ['kind', 'name', 'alert'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';

export const SORT_LABELS: Record<SortKey, string> = { kind: '種別', name: 'センサ名', alert: '警報' };

/** The alert column's key: the first alert code (no alert sorts after every code), then the status, worst first. */
function compareAlert(a: Sortable, b: Sortable): number {
  const codeA = a.alerts[0]?.alert_id ?? null;
  const codeB = b.alerts[0]?.alert_id ?? null;
  if (codeA !== codeB) {
    if (codeA === null) return 1;
    if (codeB === null) return -1;
    return codeA < codeB ? -1 : 1;
  }
  return b.status - a.status;
}

const COMPARE: Record<SortKey, (a: Sortable, b: Sortable) => number> = {
  kind: (a, b) => a.icon_kind - b.icon_kind,
  // 000 §2: by location number plus name (a missing number counts as 00).
  name: (a, b) => (a.location_no ?? 0) - (b.location_no ?? 0) || collator.compare(a.equipment_name, b.equipment_name),
  alert: compareAlert,
};

/**
 * The list view's column order; ties keep the default order in either direction. Without a
 * key the default order.
 */
export function sortSensors<T extends Sortable>(sensors: readonly T[], key: SortKey | null, direction: SortDirection = 'asc'): T[] {
  const base = sortDefault(sensors);
  if (!key) return base;
  const sign = direction === 'asc' ? 1 : -1;
  const rank = new Map(base.map((sensor, index) => [sensor, index]));
  return base.sort((a, b) => sign * COMPARE[key](a, b) || rank.get(a)! - rank.get(b)!);
}

/** Clicking a column: a new column sorts ascending, the current one toggles. */
export function nextSort(current: { key: SortKey | null; direction: SortDirection }, clicked: SortKey): { key: SortKey; direction: SortDirection } {
  if (current.key !== clicked) return { key: clicked, direction: 'asc' };
  return { key: clicked, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

// ---- popup -----------------------------------------------------------------------------------

/** 000 §4: room needed on the right of the clicked sensor for the popup to open there. */
export const POPUP_ROOM_PX = 300;

/** Opens to the right when more than 300 px remain right of the sensor, else to the left. */
export function popupSide(sensorRight: number, viewportWidth: number): 'right' | 'left' {
  return viewportWidth - sensorRight > POPUP_ROOM_PX ? 'right' : 'left';
}

// ---- stale readings (issue 11) -------------------------------------------------------------

/**
 * How old a sensor's latest reading (YYYYMMDDHHmmss, Japan time) is, when it is at least the
 * no-communication threshold old: the views mark such a value, which is no longer the sensor's
 * temperature ("45分前", "36時間前", "3日前"). Null while it is fresh, or without a reading.
 */
export function staleReadingAge(measuredAt: string | null, now: Date, staleAfterMinutes: number): string | null {
  const at = measuredAt ? parseCompact(measuredAt) : null;
  if (!at) return null;
  const minutes = Math.floor((now.getTime() - at.getTime()) / 60_000);
  if (minutes < staleAfterMinutes) return null;
  if (minutes < 120) return `${minutes}分前`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)}時間前`;
  return `${Math.floor(minutes / 1440)}日前`;
}

/** The stale readings of a store's sensors, by equipment id: [equipment id, measured at] pairs in. */
export function staleReadings(readings: Iterable<readonly [number, string | null]>, now: Date, staleAfterMinutes: number): Record<number, string> {
  const stale: Record<number, string> = {};
  for (const [equipmentId, measuredAt] of readings) {
    const age = staleReadingAge(measuredAt, now, staleAfterMinutes);
    if (age) stale[equipmentId] = age;
  }
  return stale;
}

// ---- sparkline ----------------------------------------------------------------------------

export interface SparkPoint {
  /** Minutes since Japan midnight. */
  minute: number;
  temperature: number;
}

/**
 * The SVG path of a day's readings in a width × height box: x by minute of day (the whole
 * day, so the line ends at the current time), y scaled to the readings and the limits, so a
 * limit line can be drawn with `sparkY`. Gaps longer than `gapMinutes` break the line.
 */
export function sparkline(points: readonly SparkPoint[], box: { width: number; height: number; limits?: (number | null)[]; gapMinutes?: number }) {
  const values = [...points.map((p) => p.temperature), ...(box.limits ?? []).filter((v): v is number => v !== null)];
  if (points.length === 0 || values.length === 0) return { path: '', y: () => null as number | null };
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (max - min < 2) {
    const middle = (max + min) / 2;
    min = middle - 1;
    max = middle + 1;
  }
  const pad = 2;
  const x = (minute: number) => pad + (minute / 1440) * (box.width - 2 * pad);
  const y = (value: number) => pad + ((max - value) / (max - min)) * (box.height - 2 * pad);
  const gap = box.gapMinutes ?? 30;
  let path = '';
  let previous: number | null = null;
  for (const point of points) {
    const command = previous === null || point.minute - previous > gap ? 'M' : 'L';
    path += `${command}${x(point.minute).toFixed(1)} ${y(point.temperature).toFixed(1)}`;
    previous = point.minute;
  }
  return { path, y: (value: number | null) => (value === null ? null : y(value)) };
}

/** What every view names a sensor by: its settings of 000 §3 (diagram and graph sensors extend it). */
export interface SensorLabel {
  equipmentId: number;
  equipmentName: string;
  iconKind: number;
  locationNo: number | null;
  lowerLimit: number | null;
  upperLimit: number | null;
}
