import type { z } from 'zod';
import { MAX_FUTURE_MS, PairRequestSchema as WirePairRequestSchema, ReadingSchema, ReadingsWithHealthRequestSchema } from '../../gateway/protocol';
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
  const parsed = ReadingSchema.safeParse(raw);
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
