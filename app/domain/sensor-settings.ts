import { z } from 'zod';
import { BLE_ADDRESS, HeardRequestSchema, HeardSensorSchema, MAX_FUTURE_MS, MAX_HEARD_PER_REPORT } from '../../gateway/protocol';
import { type DefrostTime, parseDefrostTimes } from './defrost';
import { FURNITURE_KIND_COUNT } from './furniture-kinds';
import { dbText, INT4_MAX, nameText } from './input-schemas';
import { parseCompact } from './japan-time';

// Sensor settings (issue 12; 001 §2 Sensor edit, §3 Sensor fields, §4, §5, §9): the one input of
// the sensor save (the console form and POST /v1/equipments), the answers of the sensor list and
// detail, the sensors show page's view shapes and the tabs. Field messages are 001 §5's Japanese
// texts, so the form shows the server's messages at the same fields as the client's.

export const SENSOR_MESSAGES = {
  required: '入力してください',
  choose: '選択してください',
  digits: '半角数値を入力してください',
  number: '数字を入力してください',
  format: 'フォーマットが違います',
  range: '範囲が違います',
  limitsRange: '入力の範囲が違います',
  banner: '入力に誤りがあります',
  // Ours (001 is silent; decision 111):
  defrostOrder: '開始は終了より前にしてください',
  defrostOverlap: '時間帯が重複しています',
  stale: 'このセンサは他のユーザーによって更新されました。画面を開き直してから編集してください。',
  duplicateSerial: 'このシリアル番号は既に登録されています',
  serial: 'BLEアドレス (AA:BB:CC:DD:EE:FF) を入力してください',
  saved: 'センサ情報を保存しました。',
  registered: 'センサを登録しました。',
} as const;

export const SENSOR_NAME_MAX = 30;
export const LIMIT_MIN = -30;
export const LIMIT_MAX = 60;
export const GUARD_TIME_RANGE = { min: 1, max: 360 } as const;
export const SNOOZE_TIME_RANGE = { min: 1, max: 1440 } as const;
export const TIME_CONSTANT_RANGE = { min: 1, max: 200 } as const;
export const TIME_CONSTANT_DEFAULT = 100;
/** At most this many defrost ranges per sensor (ours: 48 half hours fill a day). */
export const DEFROST_MAX = 48;

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const text = (value: unknown) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null);

/** A limit: empty → null; not a half-width number → 半角数値; more than one decimal → フォーマット. */
function readLimit(value: unknown, ctx: z.RefinementCtx, field: string): number | null | undefined {
  if (blank(value)) return null;
  const raw = text(value);
  if (raw === null || !/^-?\d+(\.\d+)?$/.test(raw)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: SENSOR_MESSAGES.digits });
    return undefined;
  }
  if (!/^-?\d{1,3}(\.\d)?$/.test(raw)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: SENSOR_MESSAGES.format });
    return undefined;
  }
  return Number(raw);
}

/** An optional whole number within a range: empty → null; not digits → 数字を入力してください; outside → 範囲が違います. */
function readWhole(value: unknown, ctx: z.RefinementCtx, field: string, range: { min: number; max: number }): number | null | undefined {
  if (blank(value)) return null;
  const raw = text(value);
  if (raw === null || !/^\d{1,9}$/.test(raw)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: SENSOR_MESSAGES.number });
    return undefined;
  }
  const number = Number(raw);
  if (number < range.min || number > range.max) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: SENSOR_MESSAGES.range });
    return undefined;
  }
  return number;
}

/** YYYYMMDD (Japan calendar) or empty → 'YYYY-MM-DD' | null. */
function readDate(value: unknown, ctx: z.RefinementCtx, field: string): string | null | undefined {
  if (blank(value)) return null;
  const raw = text(value);
  if (raw === null || !/^\d{8}$/.test(raw) || !parseCompact(`${raw}000000`)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: SENSOR_MESSAGES.format });
    return undefined;
  }
  return `${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6, 8)}`;
}

/** The settings a sensor keeps over time (DESIGN.md "Settings over time"), as a save writes them. */
export interface SettingsFields {
  lower_limit: number | null;
  upper_limit: number | null;
  guard_time: number | null;
  snoozing_time: number | null;
  time_constant: number;
  def_time: DefrostTime[];
}

/**
 * The rules of the settings fields (limits, guard and snooze times, time constant, defrost
 * ranges), once: the sensor save and the settings templates (issue 32) both read them here, so a
 * template cannot hold what a sensor may not.
 */
export function readSettingsFields(
  raw: { lower_limit?: unknown; upper_limit?: unknown; guard_time?: unknown; snoozing_time?: unknown; time_constant?: unknown; def_time?: readonly { start: string; end: string }[] },
  ctx: z.RefinementCtx,
): SettingsFields {
  const lower = readLimit(raw.lower_limit, ctx, 'lower_limit');
  const upper = readLimit(raw.upper_limit, ctx, 'upper_limit');
  if (lower !== undefined && upper !== undefined) {
    if ((lower === null) !== (upper === null)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [lower === null ? 'lower_limit' : 'upper_limit'], message: SENSOR_MESSAGES.limitsRange });
    } else if (lower !== null && upper !== null) {
      if (lower < LIMIT_MIN || lower > LIMIT_MAX) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['lower_limit'], message: SENSOR_MESSAGES.limitsRange });
      else if (upper > LIMIT_MAX || upper < LIMIT_MIN) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['upper_limit'], message: SENSOR_MESSAGES.limitsRange });
      else if (lower > upper) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['lower_limit'], message: SENSOR_MESSAGES.limitsRange });
    }
  }
  const guard = readWhole(raw.guard_time, ctx, 'guard_time', GUARD_TIME_RANGE);
  const snooze = readWhole(raw.snoozing_time, ctx, 'snoozing_time', SNOOZE_TIME_RANGE);
  const constant = readWhole(raw.time_constant, ctx, 'time_constant', TIME_CONSTANT_RANGE);
  const defTime = (raw.def_time ?? []).map((entry) => ({ start: entry.start.trim(), end: entry.end.trim() }));
  const parsed = parseDefrostTimes(defTime);
  let sortedDefrost: DefrostTime[] = [];
  if (!parsed.ok) {
    const message = parsed.error === 'format' ? SENSOR_MESSAGES.format : parsed.error === 'order' ? SENSOR_MESSAGES.defrostOrder : SENSOR_MESSAGES.defrostOverlap;
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['def_time', parsed.index], message });
  } else {
    sortedDefrost = parsed.ranges.map((range) => ({ start: minuteText(range.start), end: minuteText(range.end) }));
  }
  return {
    lower_limit: lower ?? null,
    upper_limit: upper ?? null,
    guard_time: guard ?? null,
    snoozing_time: snooze ?? null,
    time_constant: constant ?? TIME_CONSTANT_DEFAULT,
    def_time: sortedDefrost,
  };
}

const DefrostEntrySchema = z.object({ start: dbText().max(5), end: dbText().max(5) });
/** The defrost ranges' shape (their rules are readSettingsFields'). */
export const DefTimeSchema = z.array(DefrostEntrySchema, { invalid_type_error: SENSOR_MESSAGES.format }).max(DEFROST_MAX, `${DEFROST_MAX}件まで`).optional();

const SensorSaveRawSchema = z.object({
  store_id: dbText({ required_error: 'store_id is required' }).trim().min(1, 'store_id is required').max(20, 'store_id is at most 20 characters'),
  equipment_id: z.preprocess((value) => (blank(value) ? undefined : value), z.coerce.number({ invalid_type_error: SENSOR_MESSAGES.number }).int().positive().max(INT4_MAX).optional()),
  /** The row's updated_at as the detail answered it (optimistic concurrency); required with equipment_id. */
  updated_at: z.preprocess((value) => (blank(value) ? undefined : value), dbText().max(40).optional()),
  /** The BLE address; required when creating (no equipment_id), ignored when updating. */
  serial_no: z.preprocess((value) => (blank(value) ? undefined : value), dbText().max(40).optional()),
  equipment_name: nameText({ required_error: SENSOR_MESSAGES.required, invalid_type_error: SENSOR_MESSAGES.required }).max(1000, `${SENSOR_NAME_MAX}文字以内で入力してください`),
  installation_datetime: z.unknown().optional(),
  removal_datetime: z.unknown().optional(),
  measure_target_equipment_kind_id: z.unknown().optional(),
  lower_limit: z.unknown().optional(),
  upper_limit: z.unknown().optional(),
  guard_time: z.unknown().optional(),
  snoozing_time: z.unknown().optional(),
  icon_kind: z.unknown().optional(),
  def_time: DefTimeSchema,
  time_constant: z.unknown().optional(),
  disp_flg: z.unknown().optional(),
});

/** What a sensor save writes (dates 'YYYY-MM-DD'). */
export interface SensorSave {
  store_id: string;
  equipment_id: number | null;
  updated_at: string | null;
  serial_no: string | null;
  equipment_name: string;
  installation_datetime: string | null;
  removal_datetime: string | null;
  measure_target_equipment_kind_id: number | null;
  lower_limit: number | null;
  upper_limit: number | null;
  guard_time: number | null;
  snoozing_time: number | null;
  icon_kind: number;
  def_time: DefrostTime[];
  time_constant: number;
  disp_flg: 0 | 1;
}

/**
 * The sensor save (001 §5 Sensor edit, §7 sensor update): create without equipment_id (serial_no
 * required), update with equipment_id and updated_at. Every refused field names its message.
 */
export const SensorSaveSchema = SensorSaveRawSchema.transform((raw, ctx): SensorSave => {
  const name = raw.equipment_name.trim();
  if (name === '') ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['equipment_name'], message: SENSOR_MESSAGES.required });
  else if ([...name].length > SENSOR_NAME_MAX) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['equipment_name'], message: `${SENSOR_NAME_MAX}文字以内で入力してください` });
  const equipmentId = raw.equipment_id ?? null;
  if (equipmentId !== null && !raw.updated_at) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['updated_at'], message: 'updated_at is required with equipment_id' });
  let serialNo: string | null = null;
  if (equipmentId === null) {
    const serial = raw.serial_no?.trim().toUpperCase() ?? '';
    if (serial === '') ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['serial_no'], message: SENSOR_MESSAGES.required });
    else if (!BLE_ADDRESS.test(serial)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['serial_no'], message: SENSOR_MESSAGES.serial });
    else serialNo = serial;
  }
  const installation = readDate(raw.installation_datetime, ctx, 'installation_datetime');
  const removal = readDate(raw.removal_datetime, ctx, 'removal_datetime');
  const kind = blank(raw.measure_target_equipment_kind_id) ? null : readWhole(raw.measure_target_equipment_kind_id, ctx, 'measure_target_equipment_kind_id', { min: 1, max: 32_767 });
  const settings = readSettingsFields(raw, ctx);
  let icon: number | undefined;
  if (blank(raw.icon_kind)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['icon_kind'], message: SENSOR_MESSAGES.choose });
  else {
    const value = readWhole(raw.icon_kind, ctx, 'icon_kind', { min: 1, max: FURNITURE_KIND_COUNT });
    if (value !== null && value !== undefined) icon = value;
  }
  let display: 0 | 1 = 1;
  if (!blank(raw.disp_flg)) {
    const flag = text(raw.disp_flg);
    if (flag === '0' || flag === '1') display = flag === '1' ? 1 : 0;
    else ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['disp_flg'], message: 'disp_flg is 0 or 1' });
  }
  return {
    store_id: raw.store_id,
    equipment_id: equipmentId,
    updated_at: raw.updated_at ?? null,
    serial_no: serialNo,
    equipment_name: name,
    installation_datetime: installation ?? null,
    removal_datetime: removal ?? null,
    measure_target_equipment_kind_id: kind ?? null,
    ...settings,
    icon_kind: icon ?? 1,
    disp_flg: display,
  };
});

/** What the description shows of the save body (the schema reads any field and checks it itself). */
export const SensorSaveDocumentedSchema = z.object({
  store_id: z.string(),
  equipment_id: z.number().int().optional().describe('absent when creating'),
  updated_at: z.string().optional().describe('the detail\'s updated_at; required with equipment_id (a stale one is 409)'),
  serial_no: z.string().optional().describe('the BLE address; required when creating'),
  equipment_name: z.string().max(SENSOR_NAME_MAX),
  installation_datetime: z.string().nullable().optional().describe('YYYYMMDD'),
  removal_datetime: z.string().nullable().optional().describe('YYYYMMDD; from that day the sensor leaves the gateway config'),
  measure_target_equipment_kind_id: z.number().int().nullable().optional(),
  lower_limit: z.number().nullable().optional(),
  upper_limit: z.number().nullable().optional(),
  guard_time: z.number().int().nullable().optional(),
  snoozing_time: z.number().int().nullable().optional(),
  icon_kind: z.number().int(),
  def_time: z.array(z.object({ start: z.string(), end: z.string() })).optional(),
  time_constant: z.number().int().nullable().optional(),
  disp_flg: z.number().int().optional(),
});

function minuteText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * The form's fields → the save input: def_start_N / def_end_N pairs (both blank are dropped),
 * everything else as sent. The form and POST /v1/equipments then share SensorSaveSchema.
 */
export function sensorFormInput(form: Record<string, unknown>, storeId: string): Record<string, unknown> {
  const defTime: { start: string; end: string }[] = [];
  for (let index = 0; index < DEFROST_MAX; index++) {
    const start = form[`def_start_${index}`];
    const end = form[`def_end_${index}`];
    if (start === undefined && end === undefined) continue;
    if (blank(start) && blank(end)) continue;
    defTime.push({ start: String(start ?? ''), end: String(end ?? '') });
  }
  const { intent: _intent, ...rest } = form;
  const fields = Object.fromEntries(Object.entries(rest).filter(([name]) => !/^def_(start|end)_\d+$/.test(name)));
  // A date input sends YYYY-MM-DD; the save takes YYYYMMDD (001 §5).
  for (const name of ['installation_datetime', 'removal_datetime']) {
    const value = fields[name];
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) fields[name] = value.replaceAll('-', '');
  }
  return { ...fields, store_id: storeId, def_time: defTime };
}

// ---- queries and answers -----------------------------------------------------------------------

const storeIdField = dbText({ required_error: 'store_id is required' }).trim().min(1, 'store_id is required').max(20, 'store_id is at most 20 characters');
export const SensorListQuerySchema = z.object({ store_id: storeIdField });

const compactDate = z.string().regex(/^\d{8}$/).nullable();
const compactStamp = z.string().regex(/^\d{14}$/).nullable();

/** GET /v1/equipments/list: 001 §3 "Sensor (store list)", every sensor of the store (removed and hidden ones too). */
export const SensorListItemSchema = z.strictObject({
  equipment_id: z.number().int(),
  equipment_name: z.string(),
  disp_flg: z.number().int(),
  lower_limit: z.number().nullable(),
  upper_limit: z.number().nullable(),
  guard_time: z.number().int().nullable(),
  snoozing_time: z.number().int().nullable(),
  serial_no: z.string(),
  model_id: z.number().int().nullable(),
  model_name: z.string().nullable(),
  equipmentkind_name: z.string().nullable(),
  installation_datetime: compactDate,
  removal_datetime: compactDate,
  last_measure_datetime: compactStamp,
  last_battery: z.number().nullable(),
  last_receive_sensitivity: z.number().nullable(),
  location_no: z.number().int().nullable(),
  position_x: z.number(),
  position_y: z.number(),
  icon_kind: z.number().int(),
  measure_target_equipment_kind_id: z.number().int().nullable(),
  measure_target_serial_no: z.string().nullable(),
  measure_target_name: z.string().nullable(),
  measure_target_equipment_kind_name: z.string().nullable(),
});
export type SensorListItem = z.infer<typeof SensorListItemSchema>;

export const SensorListAnswerSchema = z.strictObject({ store_id: z.string(), store_name: z.string(), equipments: z.array(SensorListItemSchema) });
export type SensorListAnswer = z.infer<typeof SensorListAnswerSchema>;

/** GET /v1/equipments: what it answered before (000 §3), then 001 §3 "Sensor detail", then updated_at for the save. */
export const SensorDetailAnswerSchema = z.strictObject({
  equipment_id: z.number().int(),
  equipment_name: z.string(),
  icon_kind: z.number().int(),
  guard_time: z.number().int().nullable(),
  serial_no: z.string(),
  snoozing_time: z.number().int().nullable(),
  location_no: z.number().int().nullable(),
  lower_limit: z.number().nullable(),
  upper_limit: z.number().nullable(),
  store_id: z.string(),
  equipmentkind_id: z.number().int().nullable(),
  equipmentkind_name: z.string().nullable(),
  model_name: z.string().nullable(),
  installation_datetime: compactDate,
  removal_datetime: compactDate,
  measure_target_serial_no: z.string().nullable(),
  measure_target_equipment_kind_id: z.number().int().nullable(),
  measure_target_equipment_kind_name: z.string().nullable(),
  time_constant: z.number().int(),
  def_time: z.array(z.strictObject({ start: z.string(), end: z.string() })),
  disp_flg: z.number().int(),
  updated_at: z.string(),
});
export type SensorDetail = z.infer<typeof SensorDetailAnswerSchema>;

export const SensorSaveAnswerSchema = z.strictObject({ store_id: z.string(), equipment_id: z.number().int(), updated_at: z.string() });

export const MeasureTargetKindsAnswerSchema = z.array(
  z.strictObject({ measure_target_equipment_kind_id: z.number().int(), measure_target_equipment_kind_name: z.string() }),
);
export type MeasureTargetKind = z.infer<typeof MeasureTargetKindsAnswerSchema>[number];

/** GET /v1/equipments/unregistered: the addresses the store's gateway hears that are not its sensors, latest report each. */
export const UnregisteredSensorSchema = z.strictObject({
  serial_no: z.string(),
  format: z.string(),
  temperature: z.number().nullable(),
  receive_sensitivity: z.number().int().nullable(),
  heard_at: z.string(),
});
export type UnregisteredSensor = z.infer<typeof UnregisteredSensorSchema>;
export const UnregisteredAnswerSchema = z.strictObject({ store_id: z.string(), sensors: z.array(UnregisteredSensorSchema) });

// ---- the sensors show page ------------------------------------------------------------------

export const SENSORS_SHOW_TABS = [
  { key: 'sensors', label: 'センサ情報' },
  { key: 'furniture', label: '什器情報' },
  { key: 'users', label: 'ユーザー情報' },
  { key: 'diagram', label: 'センサ配置図' },
  { key: 'alert-stop', label: '警報停止時間帯' },
] as const;
export type SensorsShowTab = (typeof SENSORS_SHOW_TABS)[number]['key'];

export function parseSensorsShowTab(value: string | null | undefined): SensorsShowTab {
  return SENSORS_SHOW_TABS.find((tab) => tab.key === value)?.key ?? 'sensors';
}

/** The calendar month of the alert-stop tab, from ?month=YYYYMM (else today's). */
export function parseCalendarMonth(value: string | null | undefined, today: string): { year: number; month: number } {
  const match = /^(\d{4})(\d{2})$/.exec(value ?? '');
  if (match) {
    const year = Number(match[1]);
    const month = Number(match[2]);
    if (year >= 2000 && year <= 2100 && month >= 1 && month <= 12) return { year, month };
  }
  return { year: Number(today.slice(0, 4)), month: Number(today.slice(4, 6)) };
}

export function shiftMonth({ year, month }: { year: number; month: number }, by: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + by;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export const monthKey = ({ year, month }: { year: number; month: number }) => `${year}${String(month).padStart(2, '0')}`;

/**
 * The weeks of a month, Sunday first: each cell a YYYYMMDD day or null outside the month.
 * Pure calendar arithmetic (UTC dates stand for Japan calendar days).
 */
export function monthWeeks(year: number, month: number): (string | null)[][] {
  const first = new Date(Date.UTC(year, month - 1, 1));
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const cells: (string | null)[] = Array(first.getUTCDay()).fill(null);
  for (let day = 1; day <= days; day++) cells.push(`${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`);
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let index = 0; index < cells.length; index += 7) weeks.push(cells.slice(index, index + 7));
  return weeks;
}

/** YYYYMMDD → 'YYYY/MM/DD' (001 §2: the first 10 characters of the dates), '-' for none. */
export const displayDate = (value: string | null) => (value ? `${value.slice(0, 4)}/${value.slice(4, 6)}/${value.slice(6, 8)}` : '-');

// ---- POST /v1/gateway/heard, as the console reads it -------------------------------------------

/** The protocol's report, with each heard_at read as a Japan time that exists and is not in the future (5 minutes' grace). */
export const HeardReportSchema = HeardRequestSchema.extend({
  sensors: z.array(
    HeardSensorSchema.transform((sensor, ctx) => {
      const heardAt = parseCompact(sensor.heard_at);
      if (!heardAt || heardAt.getTime() > Date.now() + MAX_FUTURE_MS) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['heard_at'], message: 'heard_at is not a valid past date and time' });
        return z.NEVER;
      }
      return { serialNo: sensor.serial_no, format: sensor.format, temperature: sensor.temperature, receiveSensitivity: sensor.receive_sensitivity, heardAt };
    }),
  ).max(MAX_HEARD_PER_REPORT, `at most ${MAX_HEARD_PER_REPORT} sensors per report`),
});
