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

/**
 * The release the box should run (decision 291): fetched from GET /release?version=, its
 * ed25519 signature checked against the package's public key before anything is unpacked.
 */
export const ReleaseOfferSchema = z.object({
  version: z.string().regex(/^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  signature: z.string().min(1),
  size_bytes: z.number().int().min(1),
});
export type ReleaseOffer = z.infer<typeof ReleaseOfferSchema>;

/** The /config answer. Sensors are checked one by one, so that one bad entry skips only itself. */
export const ConfigAnswerSchema = z.object({
  store_id: z.union([z.string(), z.number()]).transform(String),
  sampling_interval_seconds: z.coerce.number().int().min(10).max(3600).nullish(),
  sensors: z.array(z.unknown()),
  /** Absent or null: no change (older consoles never send it; older daemons ignore it). */
  gateway_release: z.unknown().optional(),
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

/** The ranges a reading's numbers must be in (the console's hand-checked path reads them too). */
export const READING_RANGES = { temperature: [-60, 150], battery: [0, 100], receive_sensitivity: [-127, 20] } as const;

const nullableNumber = ([min, max]: readonly [number, number]) => z.number().min(min).max(max).nullable().optional().transform((value) => value ?? null);

/** One reading of a batch: the address in upper case, battery and signal rounded. */
export const ReadingSchema = z
  .object({
    serial_no: z.string().transform((value) => value.toUpperCase()).pipe(z.string().regex(BLE_ADDRESS, 'serial_no is a BLE address AA:BB:CC:DD:EE:FF')),
    measured_at: z.string().regex(COMPACT_DATE_TIME, 'measured_at is YYYYMMDDHHmmss'),
    temperature: nullableNumber(READING_RANGES.temperature),
    error: z.boolean().default(false),
    battery: nullableNumber(READING_RANGES.battery).transform((value) => (value === null ? null : Math.round(value))),
    receive_sensitivity: nullableNumber(READING_RANGES.receive_sensitivity).transform((value) => (value === null ? null : Math.round(value))),
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

// ---- POST /heard (issue 12) --------------------------------------------------------------------

/** At most this many addresses in one /heard report. */
export const MAX_HEARD_PER_REPORT = 200;

/** A BLE sensor the gateway hears that is not in its config: its address, decoded format, last temperature and signal. */
export const HeardSensorSchema = z.object({
  serial_no: z.string().max(17).transform((value) => value.toUpperCase()).pipe(z.string().regex(BLE_ADDRESS, 'serial_no is a BLE address AA:BB:CC:DD:EE:FF')),
  format: z.string().trim().min(1, 'format is required').max(40).regex(/^[\w.-]+$/, 'format is a decoder name'),
  temperature: z.number().min(-60).max(150).nullable(),
  receive_sensitivity: z.number().int().min(-127).max(20).nullable(),
  heard_at: z.string().regex(COMPACT_DATE_TIME, 'heard_at is YYYYMMDDHHmmss'),
});
export type HeardSensor = z.input<typeof HeardSensorSchema>;

export const HeardRequestSchema = z.object({
  sensors: z.array(HeardSensorSchema).max(MAX_HEARD_PER_REPORT, `at most ${MAX_HEARD_PER_REPORT} sensors per report`),
});
export type HeardRequest = { sensors: HeardSensor[] };

export const HeardAnswerSchema = z.object({ stored: z.number().int().min(0) });
// ---- POST /health, and `health` beside a readings batch (docs/decisions/160) ---------------------

/** With nothing to upload, the gateway still reports at least this often. */
export const HEALTH_IDLE_SECONDS = 5 * 60;
/** Beside uploads, a report rides along this often, and at once when something that matters changed. */
export const HEALTH_PIGGYBACK_SECONDS = 60 * 60;
export const MAX_HEALTH_VERSION_LENGTH = 64;
export const BLE_ADAPTER_STATES = ['on', 'off', 'simulated', 'unknown'] as const;
export type BleAdapterState = (typeof BLE_ADAPTER_STATES)[number];

const count = (field: string, max = 2 ** 50) =>
  z.number({ invalid_type_error: `${field} is a whole number` }).int(`${field} is a whole number`).min(0, `${field} cannot be negative`).max(max, `${field} is at most ${max}`);
/** Printable text only: no control characters, no lone surrogates (what a database column can hold). */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const printable = (value: string) => !/[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);

/** What a gateway says about itself. LTE RSSI is null when the modem does not tell (never made up). */
export const HealthReportSchema = z
  .object({
    reported_at: z.string().regex(COMPACT_DATE_TIME, 'reported_at is YYYYMMDDHHmmss'),
    version: z
      .string()
      .trim()
      .min(1, 'version is required')
      .max(MAX_HEALTH_VERSION_LENGTH, `version is at most ${MAX_HEALTH_VERSION_LENGTH} characters`)
      .refine(printable, 'version has characters that are not printable'),
    uptime_seconds: count('uptime_seconds').max(20 * 365 * 86_400, 'uptime_seconds is more than 20 years'),
    buffer_depth: count('buffer_depth', 1_000_000_000),
    buffer_capacity: count('buffer_capacity', 1_000_000_000).min(1, 'buffer_capacity is at least 1'),
    oldest_unsent_at: z.string().regex(COMPACT_DATE_TIME, 'oldest_unsent_at is YYYYMMDDHHmmss').nullable(),
    disk_free_bytes: count('disk_free_bytes').nullable(),
    disk_total_bytes: count('disk_total_bytes').nullable(),
    ble_adapter: z.enum(BLE_ADAPTER_STATES),
    sensors_heard: count('sensors_heard').max(100_000, 'sensors_heard is at most 100000'),
    lte_rssi: z.number().min(-150, 'lte_rssi is -150 to 0 dBm').max(0, 'lte_rssi is -150 to 0 dBm').nullable(),
    dropped_total: count('dropped_total'),
  })
  .refine((h) => h.buffer_depth <= h.buffer_capacity, { message: 'buffer_depth cannot exceed buffer_capacity', path: ['buffer_depth'] })
  .refine((h) => h.disk_free_bytes === null || h.disk_total_bytes === null || h.disk_free_bytes <= h.disk_total_bytes, {
    message: 'disk_free_bytes cannot exceed disk_total_bytes',
    path: ['disk_free_bytes'],
  });
export type HealthReport = z.input<typeof HealthReportSchema>;

/** A readings batch that may carry the health report; the console checks `health` on its own, so a bad one never costs the readings. */
export const ReadingsWithHealthRequestSchema = ReadingsRequestSchema.extend({ health: z.unknown().optional() });

export const HealthAnswerSchema = z.object({ stored: z.boolean() });

/** The buffer fill at which the console raises its alarm (OE00000006) and the gateway reports at once. */
export const HEALTH_BUFFER_ALARM_RATIO = 0.8;
/** The disk is nearly full below this share free (or below HEALTH_DISK_LOW_BYTES). */
export const HEALTH_DISK_LOW_RATIO = 0.05;
export const HEALTH_DISK_LOW_BYTES = 100 * 1024 * 1024;

// ---- releases (decision 291) -------------------------------------------------------------------

/** POST /update_failure: the box took `version` and went back to the previous one by itself. */
export const UpdateFailureRequestSchema = z.object({ version: z.string().min(1).max(64), reason: z.string().min(1).max(500) });
export type UpdateFailureRequest = z.infer<typeof UpdateFailureRequestSchema>;
export const UpdateFailureAnswerSchema = z.object({ stored: z.boolean() });
