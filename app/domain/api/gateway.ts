import { z } from 'zod';
import { GatewayReadingSchema, MAX_READINGS_PER_BATCH, PairRequestSchema, ReadingsBatchSchema } from '../gateway-schemas';
import { HealthReportSchema } from '../gateway-health';
import { body, defineCall, jsonAnswer } from './call';

// The gateway protocol (DESIGN.md): pairing by PIN, then the store's config and readings with
// the gateway token. The answers are declared here until the wire-protocol module holds them.

export const PairAnswerSchema = z.strictObject({ gateway_token: z.string(), store_id: z.string() });

export const GatewayConfigAnswerSchema = z.strictObject({
  store_id: z.string(),
  sampling_interval_seconds: z.number().int(),
  sensors: z.array(z.strictObject({ equipment_id: z.number().int(), serial_no: z.string(), encryption_key: z.string().nullable() })),
});

export const IngestAnswerSchema = z.strictObject({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(z.strictObject({ index: z.number().int(), reason: z.string() })),
  /** Why the health report carried with the batch was not stored (the readings were). */
  health_error: z.string().optional(),
});

/** The body of a readings batch as a gateway sends it; the readings are checked one by one (a bad one rejects only itself). */
const DocumentedBatchSchema = z.object({
  readings: z.array(GatewayReadingSchema).max(MAX_READINGS_PER_BATCH),
  buffer_overflow: z.boolean().optional(),
  health: HealthReportSchema.optional(),
});

export const pairGateway = defineCall('pairGateway', 'POST /on-reco/v1/gateway/pair', {
  summary: 'Pair a gateway with its store\'s PIN: a gateway token',
  access: { kind: 'public' },
  input: body(PairRequestSchema),
  answer: jsonAnswer(PairAnswerSchema, 'The gateway token (pairing again revokes the previous one) and the store.'),
  errors: [
    { status: 400, error: 'invalid_grant', when: 'the PIN is not the current PIN of the store of this gateway' },
    { status: 429, error: 'too_many_attempts', when: 'too many wrong PINs for this gateway from this address, from this address, or for this gateway from all addresses (Retry-After)' },
  ],
});

export const getGatewayConfig = defineCall('getGatewayConfig', 'GET /on-reco/v1/gateway/config', {
  summary: 'The store\'s sensors and the upload settings',
  access: { kind: 'gateway' },
  answer: jsonAnswer(GatewayConfigAnswerSchema, 'The sensors still installed (serial_no is the BLE address).'),
});

export const postReadings = defineCall('postReadings', 'POST /on-reco/v1/gateway/readings', {
  summary: 'A batch of readings (JSON, gzip allowed, up to 5,000 readings)',
  description: 'Valid readings are stored even when others are rejected; a repeated (sensor, measured_at) is a duplicate, never a second row.',
  access: { kind: 'gateway' },
  input: body(ReadingsBatchSchema, { encoding: 'json-gzip', maxBytes: 8 * 1024 * 1024, documented: DocumentedBatchSchema }),
  answer: jsonAnswer(IngestAnswerSchema, 'How many were stored, how many were duplicates, and why each rejected one was.'),
  errors: [
    { status: 400, error: 'invalid_request', when: 'the body is not valid JSON or gzip' },
    { status: 413, error: 'invalid_request', when: 'the body is larger than 8 MB (after gunzip)' },
    { status: 429, error: 'busy', when: 'too many batches in flight on this server (Retry-After)' },
  ],
});

export const HealthAnswerSchema = z.strictObject({ stored: z.boolean() });

export const postHealth = defineCall('postHealth', 'POST /on-reco/v1/gateway/health', {
  summary: 'The gateway\'s health: version, uptime, buffer, disk, BLE adapter, sensors heard, LTE signal',
  description:
    'Sent on its own when there was nothing to upload for 5 minutes or when something that matters changed; otherwise it rides with a readings batch as `health`. ' +
    'Stored as the store\'s latest report and kept 30 days; a buffer at 80 % or a nearly full disk raises OE00000006, readings dropped raise OE00000007.',
  access: { kind: 'gateway' },
  input: body(HealthReportSchema, { encoding: 'json-gzip', maxBytes: 2 * 1024 * 1024 }),
  answer: jsonAnswer(HealthAnswerSchema, 'The report was stored.'),
  errors: [
    { status: 400, error: 'invalid_request', when: 'a field is missing or absurd (negative depth, depth over capacity, a version over 64 characters, LTE outside −150..0 dBm): nothing is stored' },
    { status: 413, error: 'invalid_request', when: 'the body is larger than 2 MB (after gunzip)' },
  ],
});
