import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Logger } from 'pino';
import type { Db } from '~/db/db.server';
import { absoluteUrl, alertAcknowledgeUrl } from '~/domain/urls';
import { nextWebhookAttempt, renderWebhookBody, WEBHOOK_HEADERS, type WebhookAlertFacts, type WebhookEndpointCreate, webhookPrivateTargetMessage, webhookSignedText } from '~/domain/webhooks';
import { getEnv } from '~/env.server';
import { audit } from '~/models/audit.server';
import {
  claimNextWebhookDelivery,
  deleteWebhookEndpoint,
  enqueueWebhookDeliveries,
  getWebhookDelivery,
  getWebhookEndpoint,
  insertWebhookEndpoint,
  markWebhookDelivered,
  markWebhookFailed,
  requeueDeadWebhook,
  webhookFormatsOf,
} from '~/models/webhooks.server';
import type { Viewer } from '~/models/users.server';
import { logger } from './logger.server';
import { assertLiteralTarget, checkWebhookTarget, guardedLookup } from './webhook-targets.server';

// Webhook endpoints and their delivery (docs/decisions/285-webhooks.md, docs/webhooks.md).

// ---- administration: each change in one transaction with its audit row ---------------------

export type WebhookEndpointCreated = { ok: true; endpointId: number; secret: string } | { ok: false; reason: 'invalid'; fields: Record<string, string> };

/** A new endpoint with a secret of ours, returned once; refused when its URL reaches a private address (314). */
export async function createWebhookEndpoint(db: Db, viewer: Viewer, input: WebhookEndpointCreate, now: Date): Promise<WebhookEndpointCreated> {
  const target = await checkWebhookTarget(input.url);
  if (!target.ok) return { ok: false, reason: 'invalid', fields: { url: webhookPrivateTargetMessage(target.address) } };
  const secret = `whsec_${randomBytes(32).toString('hex')}`;
  return db.transaction().execute(async (trx) => {
    const endpointId = await insertWebhookEndpoint(trx, { name: input.endpoint_name, url: input.url, format: input.format, secret, createdBy: viewer.userId, at: now });
    await audit(trx, { at: now, userId: viewer.userId, action: 'webhook_endpoint.create', targetType: 'webhook_endpoint', targetId: endpointId, details: { before: null, after: { endpoint_id: endpointId, ...input } } });
    return { ok: true as const, endpointId, secret };
  });
}

/** Removes an endpoint and its deliveries; steps that name it post to the others. False: no such endpoint. */
export async function removeWebhookEndpoint(db: Db, viewer: Viewer, endpointId: number, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const before = await getWebhookEndpoint(trx, endpointId);
    if (!before || !(await deleteWebhookEndpoint(trx, endpointId))) return false;
    await audit(trx, { at: now, userId: viewer.userId, action: 'webhook_endpoint.delete', targetType: 'webhook_endpoint', targetId: endpointId, details: { before, after: null } });
    return true;
  });
}

/** "Retry now" on a dead letter: due at once, one more try. 'not-found' / 'not-dead' otherwise. */
export async function retryWebhookDelivery(db: Db, viewer: Viewer, deliveryId: number, now: Date): Promise<'queued' | 'not-found' | 'not-dead'> {
  return db.transaction().execute(async (trx) => {
    const delivery = await getWebhookDelivery(trx, deliveryId);
    if (!delivery) return 'not-found';
    if (!(await requeueDeadWebhook(trx, deliveryId, now))) return 'not-dead';
    await audit(trx, { at: now, userId: viewer.userId, action: 'webhook_delivery.retry', targetType: 'webhook_delivery', targetId: deliveryId, storeId: delivery.storeId, details: { before: { state: delivery.state, attempts: delivery.attempts }, after: { state: 'pending' } } });
    return 'queued';
  });
}

// ---- queueing: inside the transaction that fires a step or records a recovery ----------------

export type WebhookAlert = Omit<WebhookAlertFacts, 'idempotencyKey' | 'acknowledgeUrl'>;

/** One delivery per endpoint that still exists, its body rendered in the endpoint's format now. */
export async function queueWebhookDeliveries(trx: Db, endpointIds: readonly number[], alert: WebhookAlert, now: Date): Promise<number> {
  const endpoints = await webhookFormatsOf(trx, endpointIds);
  const acknowledgeUrl = absoluteUrl(getEnv().ONRECO_PUBLIC_URL, alertAcknowledgeUrl(alert.storeId, alert.alertHistoryId));
  await enqueueWebhookDeliveries(
    trx,
    endpoints.map(({ endpointId, format }) => {
      const idempotencyKey = randomUUID();
      return { endpointId, storeId: alert.storeId, alertHistoryId: alert.alertHistoryId, event: alert.event, stepNo: alert.stepNo, idempotencyKey, body: renderWebhookBody(format, { ...alert, idempotencyKey, acknowledgeUrl }), at: now };
    }),
  );
  return endpoints.length;
}

// ---- delivery: the worker ---------------------------------------------------------------------

/** v1=<hex HMAC-SHA256(secret, timestamp + "." + body)> */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(webhookSignedText(timestamp, body)).digest('hex')}`;
}

const REQUEST_TIMEOUT_MS = 10_000;
/** Deliveries one run sends at most; the next run (a second later) goes on. */
const MAX_PER_RUN = 200;

/** One POST through the guarded lookup (no redirects followed): any 2xx is delivered. */
function send(target: URL, body: string, headers: Record<string, string>): Promise<number> {
  assertLiteralTarget(target);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(target, { method: 'POST', lookup: guardedLookup, timeout: REQUEST_TIMEOUT_MS, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } }, (response) => {
      // The receiver's answer is not ours to keep: read it only to free the connection.
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS / 1000} s`)));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function post(url: string, secret: string, body: string, headers: Record<string, string>): Promise<{ ok: boolean; status: number | null; error: string }> {
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const status = await send(new URL(url), body, {
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': 'On-Reco-Webhook/1',
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: webhookSignature(secret, timestamp, body),
      ...headers,
    });
    return { ok: status >= 200 && status < 300, status, error: `HTTP ${status}` };
  } catch (error) {
    return { ok: false, status: null, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Sends what is due, one delivery per transaction: its row stays locked (FOR UPDATE SKIP LOCKED)
 * while it is posted, so two workers never post it at once, and its outcome is written in the same
 * transaction. A crash between the receiver's answer and the commit posts it again later with the
 * same Idempotency-Key (at least once; the key makes it once for a receiver that keeps keys).
 */
export async function deliverPendingWebhooks(db: Db, now = new Date(), log: Logger = logger.child({ module: 'webhooks' })): Promise<number> {
  let handledCount = 0;
  for (;;) {
    const handled = await db.transaction().execute(async (trx) => {
      const delivery = await claimNextWebhookDelivery(trx, now);
      if (!delivery) return false;
      const attempts = delivery.attempts + 1;
      const result = await post(delivery.url, delivery.secret, delivery.body, { [WEBHOOK_HEADERS.idempotencyKey]: delivery.idempotencyKey, [WEBHOOK_HEADERS.event]: delivery.event });
      if (result.ok && result.status !== null) {
        await markWebhookDelivered(trx, delivery.deliveryId, { attempts, status: result.status, at: new Date() });
      } else {
        const nextAt = nextWebhookAttempt(attempts, now);
        log.warn({ deliveryId: delivery.deliveryId, attempts, status: result.status, err: result.error, dead: nextAt === null }, nextAt === null ? 'webhook not delivered; dead letter' : 'webhook not delivered; will retry');
        await markWebhookFailed(trx, delivery.deliveryId, { attempts, status: result.status, error: result.error, nextAt });
      }
      return true;
    });
    if (!handled) return handledCount;
    handledCount += 1;
    if (handledCount >= MAX_PER_RUN) return handledCount;
  }
}
