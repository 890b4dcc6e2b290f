import { z } from 'zod';
import { dbText, INT4_MAX } from './input-schemas';
import { ALL_ALERT_CODES, type AlertCode } from './alert-codes';
import { parseCompact } from './japan-time';

// Inputs of the sensor views' calls (000 §7): GET /v1/store_sensors, /v1/equipments,
// /v1/equipments/measurement and /v1/alert_history/alert_status.

/** A measurement read covers at most this many days (larger ranges are refused, 400). */
export const MAX_MEASUREMENT_RANGE_DAYS = 31;
/** Without `since`, a read that gives only `until` covers the day before it. */
const DEFAULT_RANGE_MS = 24 * 60 * 60 * 1000;
/** At most this many sensors in one alert_status call. */
export const MAX_EQUIPMENT_IDS = 200;

const flag = (field: string) =>
  z
    .enum(['0', '1'], { errorMap: () => ({ message: `${field} is 0 or 1` }) })
    .default('0')
    .transform((value) => value === '1');

export const equipmentIdSchema = z.coerce
  .number({ invalid_type_error: 'equipment_id must be a number' })
  .int('equipment_id must be a whole number')
  .positive('equipment_id must be positive')
  .max(INT4_MAX, 'equipment_id is too large');

/** GET /v1/store_sensors and the sensor views: the store, and whether hidden sensors (disp_flg 0) are included. */
export const StoreSensorsQuerySchema = z.object({
  store_id: dbText({ required_error: 'store_id is required' }).trim().min(1, 'store_id is required').max(20, 'store_id is at most 20 characters'),
  include_hidden: flag('include_hidden'),
});

/** The views' own query (store from the path): include_hidden only; anything malformed reads as 0. */
export const SensorViewQuerySchema = z.object({ include_hidden: flag('include_hidden').catch(false) });

export const EquipmentQuerySchema = z.object({ equipment_id: equipmentIdSchema });

/** A YYYYMMDDHHmmss Japan-time query value, read as a Date; malformed or impossible values fail on `field`. */
export const compactDateTime = (field: string) =>
  z
    .string({ required_error: `${field} is required` })
    .regex(/^\d{14}$/, `${field} is YYYYMMDDHHmmss`)
    .transform((value, ctx) => {
      const at = parseCompact(value);
      if (!at) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${field} is not a valid date and time` });
        return z.NEVER;
      }
      return at;
    });

const optionalParam = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** GET /v1/equipments/measurement: without since and until, the latest reading only. */
export const MeasurementQuerySchema = z
  .object({
    equipment_id: equipmentIdSchema,
    since: optionalParam(compactDateTime('since')),
    until: optionalParam(compactDateTime('until')),
    convert_def: flag('convert_def'),
  })
  .superRefine((query, ctx) => {
    if (query.since && query.until && query.since > query.until) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['until'], message: 'until must not be before since' });
  });

export type MeasurementQuery = z.infer<typeof MeasurementQuerySchema>;

export type MeasurementRange = { latestOnly: true } | { latestOnly: false; since: Date; until: Date };

/**
 * The range a measurement read covers: none given, the latest reading; since alone, up to now;
 * until alone, the day before it. More than 31 days is refused (the field and the reason).
 */
export function resolveMeasurementRange(query: Pick<MeasurementQuery, 'since' | 'until'>, now: Date): { ok: true; range: MeasurementRange } | { ok: false; fields: Record<string, string> } {
  if (!query.since && !query.until) return { ok: true, range: { latestOnly: true } };
  const until = query.until ?? now;
  const since = query.since ?? new Date(until.getTime() - DEFAULT_RANGE_MS);
  if (since > until) return { ok: false, fields: { since: 'since must not be after until (now when until is left out)' } };
  if (until.getTime() - since.getTime() > MAX_MEASUREMENT_RANGE_DAYS * DEFAULT_RANGE_MS) {
    return { ok: false, fields: { since: `the range from since to until is at most ${MAX_MEASUREMENT_RANGE_DAYS} days` } };
  }
  return { ok: true, range: { latestOnly: false, since, until } };
}

/** GET /v1/alert_history/alert_status: a comma list of equipment ids (each once, at most 200). */
export const AlertStatusQuerySchema = z.object({
  equipment_id: z.string({ required_error: 'equipment_id is required' }).transform((value, ctx) => {
    const parts = value.split(',').map((part) => part.trim());
    const ids = parts.map((part) => (/^\d{1,10}$/.test(part) ? Number(part) : NaN));
    if (ids.some((id) => !Number.isInteger(id) || id < 1 || id > INT4_MAX)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'equipment_id is a comma list of positive numbers' });
      return z.NEVER;
    }
    const unique = [...new Set(ids)];
    if (unique.length > MAX_EQUIPMENT_IDS) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `at most ${MAX_EQUIPMENT_IDS} equipment ids` });
      return z.NEVER;
    }
    return unique;
  }),
});

/** The sensor popup's today (/resources/sensor-today): the store and the sensor. */
export const SensorTodayQuerySchema = z.object({
  store_id: dbText({ required_error: 'store_id is required' }).min(1, 'store_id is required').max(20, 'store_id is at most 20 characters'),
  equipment_id: equipmentIdSchema,
});

/** The list view's order in its URL (?sort=kind|name|alert&order=asc|desc); anything else is the default order. */
export const SensorListQuerySchema = z.object({
  include_hidden: flag('include_hidden').catch(false),
  sort: z.enum(['kind', 'name', 'alert']).nullable().default(null).catch(null),
  order: z.enum(['asc', 'desc']).default('asc').catch('asc'),
});

// ---- answers ----

const compactStamp = z.string().regex(/^\d{14}$/, 'YYYYMMDDHHmmss');
export const AlertCodeSchema = z.enum(ALL_ALERT_CODES as [AlertCode, ...AlertCode[]]);
/** A reading's temperature on the wire: °C (0.1), ERROR, DEF (inside a defrost range, when asked) or null. */
export const WireTemperatureSchema = z.union([z.number(), z.literal('ERROR'), z.literal('DEF'), z.null()]);
const sensorStatus = z.union([z.literal(0), z.literal(1), z.literal(2)]);
const alertList = z.array(z.strictObject({ alert_id: AlertCodeSchema }));

/** GET /v1/store_sensors: the specification's fields, then the live state (decision 020). */
export const StoreSensorsAnswerSchema = z.strictObject({
  store_id: z.string(),
  store_name: z.string(),
  sensors: z.array(
    z.strictObject({
      equipment_id: z.number().int(),
      equipment_name: z.string(),
      icon_kind: z.number().int(),
      location_no: z.number().int().nullable(),
      lower_limit: z.number().nullable(),
      upper_limit: z.number().nullable(),
      alert_id: AlertCodeSchema.nullable(),
      position_x: z.number(),
      position_y: z.number(),
      disp_flg: z.number().int(),
      serial_no: z.string(),
      guard_time: z.number().int().nullable(),
      snoozing_time: z.number().int().nullable(),
      status: sensorStatus,
      alerts: alertList,
      temperature: WireTemperatureSchema,
      measured_at: compactStamp.nullable(),
      battery: z.number().nullable(),
      receive_sensitivity: z.number().nullable(),
    }),
  ),
});

/** GET /v1/equipments: one sensor's detail (000 §3). */
export const EquipmentAnswerSchema = z.strictObject({
  equipment_id: z.number().int(),
  equipment_name: z.string(),
  icon_kind: z.number().int(),
  guard_time: z.number().int().nullable(),
  serial_no: z.string(),
  snoozing_time: z.number().int().nullable(),
  location_no: z.number().int().nullable(),
  lower_limit: z.number().nullable(),
  upper_limit: z.number().nullable(),
});

/** GET /v1/equipments/measurement: the status, the open and pending alerts, the readings oldest first. */
export const MeasurementAnswerSchema = z.strictObject({
  status: sensorStatus,
  alerts: alertList,
  measurement_data: z.array(
    z.strictObject({
      temperature: WireTemperatureSchema,
      battery: z.number().nullable(),
      receive_sensitivity: z.number().nullable(),
      start_date: compactStamp,
      comment: z.string().nullable(),
      comment_required: z.number().int(),
    }),
  ),
});

/** GET /v1/alert_history/alert_status: the active (equipment_id, alert_id) pairs. */
export const AlertStatusAnswerSchema = z.strictObject({
  status: z.array(z.strictObject({ equipment_id: z.number().int(), alert_id: z.string() })),
});
