import { z } from 'zod';
import { GatewayReadingSchema, MAX_READINGS_PER_BATCH, PairRequestSchema, ReadingsBatchSchema } from '../gateway-schemas';
import { HealthReportSchema } from '../gateway-health';
import { ReleaseDownloadQuerySchema, ReleaseUploadSchema, RolloutPauseSchema, RolloutSchema, UpdateFailureSchema } from '../gateway-rollout';
import { body, defineCall, fileAnswer, jsonAnswer, query } from './call';

// The gateway protocol (DESIGN.md): pairing by PIN, then the store's config and readings with
// the gateway token. The answers are declared here until the wire-protocol module holds them.

export const PairAnswerSchema = z.strictObject({ gateway_token: z.string(), store_id: z.string() });

export const GatewayConfigAnswerSchema = z.strictObject({
  store_id: z.string(),
  sampling_interval_seconds: z.number().int(),
  sensors: z.array(z.strictObject({ equipment_id: z.number().int(), serial_no: z.string(), encryption_key: z.string().nullable() })),
  /** The release the gateway should run now (decision 291); absent when there is nothing to change. */
  gateway_release: z.strictObject({ version: z.string(), sha256: z.string(), signature: z.string(), size_bytes: z.number().int() }).optional(),
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

// ---- releases and rollouts (issue 27 part 2, decision 291) ------------------------------------

export const getGatewayRelease = defineCall('getGatewayRelease', 'GET /on-reco/v1/gateway/release', {
  summary: 'A release\'s bundle (.tar.gz), for the gateway to check against its signature and install',
  access: { kind: 'gateway' },
  input: query(ReleaseDownloadQuerySchema),
  answer: fileAnswer(['application/gzip'], 'The bundle\'s bytes; the signature and sha256 came with /config.'),
  errors: [{ status: 404, error: 'not_found', when: 'no such release' }],
});

export const UpdateFailureAnswerSchema = z.strictObject({ stored: z.boolean() });

export const postUpdateFailure = defineCall('postUpdateFailure', 'POST /on-reco/v1/gateway/update_failure', {
  summary: 'The gateway took a version and rolled back by itself (no healthy upload in time, or it kept crashing at start)',
  description: 'The box is not offered that version again; the fleet list shows the failure.',
  access: { kind: 'gateway' },
  input: body(UpdateFailureSchema),
  answer: jsonAnswer(UpdateFailureAnswerSchema, 'The failure was stored.'),
});

const ReleaseSchema = z.strictObject({ version: z.string(), sha256: z.string(), signature: z.string(), size_bytes: z.number().int(), uploaded_at: z.string(), uploaded_by: z.number().int().nullable() });
const WaveSchema = z.strictObject({ wave: z.number().int(), updated: z.number().int(), pending: z.number().int(), failed: z.number().int(), open: z.boolean() });
export const RolloutAnswerSchema = z.strictObject({
  storegroup_id: z.string(),
  storegroup_name: z.string(),
  version: z.string(),
  wave_percent: z.number().int(),
  paused: z.boolean(),
  started_at: z.string(),
  waves: z.array(WaveSchema),
  gateways: z.array(
    z.strictObject({ store_id: z.string(), store_no: z.string(), store_name: z.string(), wave: z.number().int(), running_version: z.string().nullable(), state: z.enum(['updated', 'pending', 'failed']), failure: z.string().nullable() }),
  ),
});

export const listGatewayReleases = defineCall('listGatewayReleases', 'GET /on-reco/v1/gateway_releases', {
  summary: 'The gateway releases the console keeps, newest first (administrators)',
  access: { kind: 'user', permission: 'gatewayReleases' },
  answer: jsonAnswer(z.array(ReleaseSchema), 'version, sha256, signature, size, when and by whom.'),
});

export const uploadGatewayRelease = defineCall('uploadGatewayRelease', 'POST /on-reco/v1/gateway_releases', {
  summary: 'Add a gateway release: the bundle gateway:package builds and its ed25519 signature (administrators, CI)',
  description: 'JSON (gzip allowed): version, bundle_base64 (the .tar.gz), signature (base64, made with the release key kept outside the console). A version is never replaced.',
  access: { kind: 'user', permission: 'gatewayReleases' },
  input: body(ReleaseUploadSchema, { encoding: 'json-gzip', maxBytes: 72 * 1024 * 1024 }),
  answer: jsonAnswer(ReleaseSchema, 'The release kept.', [201]),
  errors: [
    { status: 409, error: 'conflict', when: 'that version exists' },
    { status: 413, error: 'payload_too_large', when: 'the bundle is larger than 48 MB' },
  ],
});

export const listGatewayRollouts = defineCall('listGatewayRollouts', 'GET /on-reco/v1/gateway_rollouts', {
  summary: 'Each store group\'s rollout with each wave\'s progress and each gateway\'s state (administrators)',
  access: { kind: 'user', permission: 'gatewayReleases' },
  answer: jsonAnswer(z.array(RolloutAnswerSchema), 'Per wave: updated, pending, failed (rolled back), and whether the wave is offered the version.'),
});

export const startGatewayRollout = defineCall('startGatewayRollout', 'POST /on-reco/v1/gateway_rollouts', {
  summary: 'Set a store group\'s desired gateway version, rolled out in two waves (administrators)',
  description: 'wave_percent of the group\'s gateways (in store_id order, at least one) first; the rest once each of them runs the version. 100 is one wave.',
  access: { kind: 'user', permission: 'gatewayReleases' },
  input: body(RolloutSchema),
  answer: jsonAnswer(z.strictObject({ storegroup_id: z.string(), version: z.string() }), 'The rollout started (or changed).'),
  errors: [{ status: 404, error: 'not_found', when: 'no such release or store group' }],
  references: { storegroup_id: 'storegroup' },
});

export const pauseGatewayRollout = defineCall('pauseGatewayRollout', 'POST /on-reco/v1/gateway_rollouts/pause', {
  summary: 'Pause or resume a store group\'s rollout (administrators)',
  description: 'Paused, no box is offered the version; boxes already on it stay.',
  access: { kind: 'user', permission: 'gatewayReleases' },
  input: body(RolloutPauseSchema),
  answer: jsonAnswer(z.strictObject({ storegroup_id: z.string(), paused: z.boolean() }), 'The rollout\'s state.'),
  errors: [{ status: 404, error: 'not_found', when: 'the group has no rollout' }],
  references: { storegroup_id: 'storegroup' },
});
