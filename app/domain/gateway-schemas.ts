import { z } from 'zod';
import { parseCompact } from './japan-time';

// The gateway protocol (DESIGN.md): pairing by PIN, then readings in batches.

export const BLE_ADDRESS = /^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/;
export const MAX_READINGS_PER_BATCH = 5000;
/** A reading stamped further ahead than this is a gateway with a wrong clock: rejected. */
export const MAX_FUTURE_MS = 5 * 60_000;
export const DEFAULT_SAMPLING_INTERVAL_SECONDS = 60;

export const PairRequestSchema = z.object({
  gateway_info: z.string().trim().min(1, 'gateway_info is required').max(255),
  pin_code: z.string().trim().regex(/^\d{6}$/, 'pin_code is 6 digits'),
});

export const ReadingsBatchSchema = z.object({
  readings: z.array(z.unknown()).max(MAX_READINGS_PER_BATCH, `at most ${MAX_READINGS_PER_BATCH} readings per batch`),
  buffer_overflow: z.boolean().optional(),
});

const nullableNumber = (min: number, max: number) => z.number().min(min).max(max).nullable().optional().transform((value) => value ?? null);

/** One reading; checked one by one so that a bad reading rejects only itself. */
export const GatewayReadingSchema = z
  .object({
    serial_no: z.string().transform((value) => value.toUpperCase()).pipe(z.string().regex(BLE_ADDRESS, 'serial_no is a BLE address AA:BB:CC:DD:EE:FF')),
    measured_at: z.string().regex(/^\d{14}$/, 'measured_at is YYYYMMDDHHmmss'),
    temperature: nullableNumber(-60, 150),
    error: z.boolean().default(false),
    battery: nullableNumber(0, 100).transform((value) => (value === null ? null : Math.round(value))),
    receive_sensitivity: nullableNumber(-127, 20).transform((value) => (value === null ? null : Math.round(value))),
  })
  .refine((reading) => reading.error || reading.temperature !== null, { message: 'temperature is required unless error is true', path: ['temperature'] });

export type GatewayReading = z.infer<typeof GatewayReadingSchema>;

export interface CheckedReading {
  index: number;
  serialNo: string;
  measuredAt: Date;
  temperature: number | null;
  error: boolean;
  battery: number | null;
  receiveSensitivity: number | null;
}

export type ReadingCheck = { ok: true; reading: CheckedReading } | { ok: false; index: number; reason: string };

/** Validates one raw reading of a batch against the clock `now`. Temperatures keep one decimal. */
export function checkReading(raw: unknown, index: number, now: Date): ReadingCheck {
  const parsed = GatewayReadingSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, index, reason: issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message };
  }
  const measuredAt = parseCompact(parsed.data.measured_at);
  if (!measuredAt) return { ok: false, index, reason: 'measured_at: not a valid date and time' };
  if (measuredAt.getTime() > now.getTime() + MAX_FUTURE_MS) return { ok: false, index, reason: 'measured_at: more than 5 minutes in the future' };
  const { serial_no, temperature, error, battery, receive_sensitivity } = parsed.data;
  return {
    ok: true,
    reading: {
      index,
      serialNo: serial_no,
      measuredAt,
      temperature: error ? null : Math.round(temperature! * 10) / 10,
      error,
      battery,
      receiveSensitivity: receive_sensitivity,
    },
  };
}
