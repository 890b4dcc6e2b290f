import type { z } from 'zod';
import {
  BLE_ADDRESS,
  COMPACT_DATE_TIME,
  MAX_FUTURE_MS,
  PairRequestSchema as WirePairRequestSchema,
  READING_RANGES,
  ReadingSchema,
  ReadingsWithHealthRequestSchema,
} from '../../gateway/protocol';
import { dbText } from './input-schemas';
import { parseCompact } from './japan-time';

// The console's side of the gateway protocol. The wire format itself (schemas, limits, the BLE
// address) is described once in gateway/protocol.ts, which the gateway daemon imports too; what
// the console decides about a reading (its clock, its rounding) stays here.

export * from '../../gateway/protocol';
/** The names the console used before the protocol had its own module (a batch may carry the health report, checked on its own). */
export { ReadingsWithHealthRequestSchema as ReadingsBatchSchema, ReadingSchema as GatewayReadingSchema };

/** A pairing as the console reads it: the protocol's, with a gateway_info PostgreSQL can store (gateway/ cannot import the rule). */
export const PairRequestSchema = WirePairRequestSchema.extend({ gateway_info: dbText().trim().min(1, 'gateway_info is required').max(255) });

export type GatewayReading = z.infer<typeof ReadingSchema>;

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
  let data = wellFormedReading(raw);
  if (!data) {
    const parsed = ReadingSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, index, reason: issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message };
    }
    data = parsed.data;
  }
  const measuredAt = parseCompact(data.measured_at);
  if (!measuredAt) return { ok: false, index, reason: 'measured_at: not a valid date and time' };
  if (measuredAt.getTime() > now.getTime() + MAX_FUTURE_MS) return { ok: false, index, reason: 'measured_at: more than 5 minutes in the future' };
  const { serial_no, temperature, error, battery, receive_sensitivity } = data;
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

/**
 * What ReadingSchema makes of a well-formed reading, checked by hand: zod's parse of thousands of
 * readings a second cost more than storing them (docs/decisions/182). Undefined for anything it
 * is not sure of, which then goes through ReadingSchema, so a rejection keeps zod's reason.
 * tests/unit/gateway-reading-check.test.ts holds the two to the same answers.
 */
export function wellFormedReading(raw: unknown): GatewayReading | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { serial_no: serial, measured_at, temperature, error = false, battery, receive_sensitivity } = raw as Record<string, unknown>;
  if (typeof serial !== 'string' || typeof measured_at !== 'string' || typeof error !== 'boolean') return undefined;
  const serialNo = serial.toUpperCase();
  if (!BLE_ADDRESS.test(serialNo) || !COMPACT_DATE_TIME.test(measured_at)) return undefined;
  const t = inRange(temperature, READING_RANGES.temperature);
  const b = inRange(battery, READING_RANGES.battery);
  const r = inRange(receive_sensitivity, READING_RANGES.receive_sensitivity);
  if (t === undefined || b === undefined || r === undefined || (!error && t === null)) return undefined;
  return { serial_no: serialNo, measured_at, temperature: t, error, battery: b === null ? null : Math.round(b), receive_sensitivity: r === null ? null : Math.round(r) };
}

/** A nullable, optional number of the range: null when absent, undefined when not acceptable. */
function inRange(value: unknown, [min, max]: readonly [number, number]): number | null | undefined {
  if (value === undefined || value === null) return null;
  return typeof value === 'number' && value >= min && value <= max ? value : undefined;
}
