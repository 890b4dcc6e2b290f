// The gateway wire protocol (DESIGN.md "The gateway protocol"), described once: what a gateway and
// the console say to each other under /on-reco/v1/gateway. Both sides import this module: the
// console (app/domain/gateway-schemas.ts, app/models/gateways.server.ts, the gateway routes) and
// the daemon (api-client.ts, state.ts, uploader.ts). It imports nothing but zod, so that gateway/
// stays deployable on its own.
import { z } from 'zod';

export const GATEWAY_API_PREFIX = '/on-reco/v1/gateway';

/** A sensor's address as the protocol carries it: `AA:BB:CC:DD:EE:FF`, upper case. */
export const BLE_ADDRESS = /^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/;
/** Japan time `YYYYMMDDHHmmss`, as `measured_at` carries it. */
export const COMPACT_DATE_TIME = /^\d{14}$/;
export const MAX_READINGS_PER_BATCH = 5000;
/** A reading stamped further ahead than this is a gateway with a wrong clock: rejected. */
export const MAX_FUTURE_MS = 5 * 60_000;
/** The interval of one reading per sensor when the console does not say otherwise. */
export const DEFAULT_SAMPLING_INTERVAL_SECONDS = 60;

// ---- POST /pair --------------------------------------------------------------------------------

export const PairRequestSchema = z.object({
  gateway_info: z.string().trim().min(1, 'gateway_info is required').max(255),
  pin_code: z.string().trim().regex(/^\d{6}$/, 'pin_code is 6 digits'),
});
export type PairRequest = z.input<typeof PairRequestSchema>;

export const PairAnswerSchema = z.object({
  gateway_token: z.string().min(1),
  store_id: z.union([z.string(), z.number()]).transform(String),
});
/** What the console answers to a pairing. */
export type PairAnswer = z.output<typeof PairAnswerSchema>;

// ---- GET /config -------------------------------------------------------------------------------

/** A sensor of the store as /config lists it; the gateway checks each entry on its own. */
export const ConfigSensorSchema = z.object({
  equipment_id: z.union([z.string(), z.number()]),
  serial_no: z.string(),
  encryption_key: z.string().nullable().optional(),
});
export type ConfigSensor = z.input<typeof ConfigSensorSchema>;

/** The /config answer. Sensors are checked one by one, so that one bad entry skips only itself. */
export const ConfigAnswerSchema = z.object({
  store_id: z.union([z.string(), z.number()]).transform(String),
  sampling_interval_seconds: z.coerce.number().int().min(10).max(3600).nullish(),
  sensors: z.array(z.unknown()),
});
/** What the console answers to /config. */
export interface ConfigAnswer {
  store_id: string;
  sampling_interval_seconds: number;
  sensors: ConfigSensor[];
}

// ---- POST /readings ----------------------------------------------------------------------------

/** A reading as the gateway sends it. */
export interface WireReading {
  serial_no: string;
  measured_at: string;
  temperature: number | null;
  error: boolean;
  battery: number | null;
  receive_sensitivity: number | null;
}

/** A batch; its readings are checked one by one (ReadingSchema) so that a bad one rejects only itself. */
export const ReadingsRequestSchema = z.object({
  readings: z.array(z.unknown()).max(MAX_READINGS_PER_BATCH, `at most ${MAX_READINGS_PER_BATCH} readings per batch`),
  buffer_overflow: z.boolean().optional(),
});
export type ReadingsRequest = { readings: WireReading[]; buffer_overflow?: boolean };

const nullableNumber = (min: number, max: number) => z.number().min(min).max(max).nullable().optional().transform((value) => value ?? null);

/** One reading of a batch: the address in upper case, battery and signal rounded. */
export const ReadingSchema = z
  .object({
    serial_no: z.string().transform((value) => value.toUpperCase()).pipe(z.string().regex(BLE_ADDRESS, 'serial_no is a BLE address AA:BB:CC:DD:EE:FF')),
    measured_at: z.string().regex(COMPACT_DATE_TIME, 'measured_at is YYYYMMDDHHmmss'),
    temperature: nullableNumber(-60, 150),
    error: z.boolean().default(false),
    battery: nullableNumber(0, 100).transform((value) => (value === null ? null : Math.round(value))),
    receive_sensitivity: nullableNumber(-127, 20).transform((value) => (value === null ? null : Math.round(value))),
  })
  .refine((reading) => reading.error || reading.temperature !== null, { message: 'temperature is required unless error is true', path: ['temperature'] });

export const ReadingsAnswerSchema = z.object({
  accepted: z.number().int().min(0),
  duplicates: z.number().int().min(0),
  rejected: z.array(z.object({ index: z.number().int().min(0), reason: z.string().optional().default('') })).default([]),
});
export type ReadingsAnswer = z.output<typeof ReadingsAnswerSchema>;

// ---- errors ------------------------------------------------------------------------------------

/** The body of an answer that is not 2xx. */
export const ErrorAnswerSchema = z.object({ error: z.string(), error_description: z.string().optional() });
