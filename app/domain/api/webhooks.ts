import { z } from 'zod';
import { WEBHOOK_DELIVERY_STATE_CODES, WEBHOOK_FORMAT_CODES, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_REPLAY_WINDOW_S, WebhookDeliveryListSchema, WebhookDeliveryRetrySchema, WebhookEndpointCreateSchema, WebhookEndpointDeleteSchema } from '../webhooks';
import { body, defineCall, jsonAnswer, query } from './call';

// Webhook endpoints (a channel of escalation steps) and their deliveries (issue 28 part 3,
// decision 285; the receiver's side in docs/webhooks.md and OpenAPI's webhooks).

const systemMenu = { kind: 'user', permission: 'systemMenu' } as const;

const EndpointSchema = z.strictObject({
  endpoint_id: z.number().int(),
  endpoint_name: z.string(),
  url: z.string(),
  format: z.enum(WEBHOOK_FORMAT_CODES),
  created_date: z.string().regex(/^\d{14}$/),
});

const SIGNING =
  `Each request carries X-OnReco-Timestamp (Unix seconds) and X-OnReco-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + body)>, and Idempotency-Key (the same on every retry). Receivers should refuse a timestamp more than ${WEBHOOK_REPLAY_WINDOW_S / 60} minutes from their clock (docs/webhooks.md).`;

export const listWebhookEndpoints = defineCall('listWebhookEndpoints', 'GET /on-reco/v1/webhook_endpoint', {
  summary: 'The chain\'s webhook endpoints (without their secrets)',
  access: systemMenu,
  answer: jsonAnswer(z.strictObject({ endpoints: z.array(EndpointSchema) }), 'The endpoints, oldest first.'),
});

export const createWebhookEndpoint = defineCall('createWebhookEndpoint', 'POST /on-reco/v1/webhook_endpoint', {
  summary: 'Register a webhook endpoint; its signing secret is in this answer only',
  description: `url is https (plain http only to localhost). format: json (On-Reco's payload), slack, teams (Workflows' Adaptive Card message) or lineworks (the Incoming Webhook app). ${SIGNING} Audited (without the secret).`,
  access: systemMenu,
  input: body(WebhookEndpointCreateSchema),
  answer: jsonAnswer(EndpointSchema.extend({ secret: z.string() }), 'The endpoint with its secret, shown this once.', [201]),
});

export const deleteWebhookEndpoint = defineCall('deleteWebhookEndpoint', 'DELETE /on-reco/v1/webhook_endpoint', {
  summary: 'Remove a webhook endpoint and its deliveries (steps that name it post to their other endpoints)',
  access: systemMenu,
  input: body(WebhookEndpointDeleteSchema),
  answer: jsonAnswer(z.strictObject({ endpoint_id: z.number().int() }), 'The removed endpoint.'),
  errors: [{ status: 404, error: 'not_found', when: 'endpoint_id is not an endpoint' }],
});

const DeliverySchema = z.strictObject({
  delivery_id: z.number().int(),
  endpoint_id: z.number().int(),
  endpoint_name: z.string(),
  store_id: z.string(),
  alert_history_id: z.number().int(),
  event: z.string(),
  step: z.number().int().nullable(),
  idempotency_key: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATE_CODES),
  attempts: z.number().int(),
  next_attempt_date: z.string().nullable(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  delivered_date: z.string().nullable(),
  created_date: z.string(),
});

export const listWebhookDeliveries = defineCall('listWebhookDeliveries', 'GET /on-reco/v1/webhook_delivery', {
  summary: 'The newest webhook deliveries of a state: the dead letters by default',
  description: `A delivery is tried with backoff (30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h, 12 h); after ${WEBHOOK_MAX_ATTEMPTS} failed tries it is dead (state dead) until an administrator retries it.`,
  access: systemMenu,
  input: query(WebhookDeliveryListSchema),
  answer: jsonAnswer(z.strictObject({ deliveries: z.array(DeliverySchema) }), 'Newest first.'),
});

export const retryWebhookDelivery = defineCall('retryWebhookDelivery', 'POST /on-reco/v1/webhook_delivery/retry', {
  summary: 'Retry a dead webhook delivery now (one more try, same body and Idempotency-Key)',
  description: 'Audited.',
  access: systemMenu,
  input: body(WebhookDeliveryRetrySchema),
  answer: jsonAnswer(z.strictObject({ delivery_id: z.number().int(), state: z.literal('pending') }), 'The delivery, due now.'),
  errors: [
    { status: 404, error: 'not_found', when: 'delivery_id is not a delivery' },
    { status: 409, error: 'invalid_state', when: 'the delivery is not dead (pending or delivered)' },
  ],
});

/** Our JSON payload (format json), described as OpenAPI's webhook `alert` (docs/webhooks.md). */
export const WebhookPayloadSchema = z.strictObject({
  event: z.enum(['alert.opened', 'alert.recovered']),
  idempotency_key: z.string().uuid(),
  alert: z.strictObject({
    alert_history_id: z.number().int(),
    code: z.string(),
    label: z.string(),
    store: z.strictObject({ store_id: z.string(), store_name: z.string() }),
    sensor: z.strictObject({ equipment_id: z.number().int(), equipment_name: z.string().nullable() }).nullable(),
    value: z.number().nullable(),
    simulated_value: z.number().nullable(),
    opened_at: z.string().regex(/^\d{14}$/),
    recovered_at: z.string().regex(/^\d{14}$/).nullable(),
  }),
  step: z.number().int().nullable(),
  acknowledge_url: z.string(),
});

export const WEBHOOK_SIGNING_DESCRIPTION = SIGNING;
