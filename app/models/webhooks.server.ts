import type { Selectable } from 'kysely';
import type { Db } from '~/db/db.server';
import type { WebhookDeliveryTable } from '~/db/schema';
import type { WebhookDelivery, WebhookDeliveryState, WebhookEndpoint, WebhookEvent, WebhookFormat } from '~/domain/webhooks';

// Webhook endpoints and their outbox (docs/decisions/285-webhooks.md): deliveries are queued in the
// transaction that decided them and sent by the worker, one locked row at a time, as mail is.

const ENDPOINT_COLUMNS = ['endpoint_id', 'endpoint_name', 'url', 'format', 'created_at'] as const;

const toEndpoint = (row: { endpoint_id: number; endpoint_name: string; url: string; format: string; created_at: Date }): WebhookEndpoint => ({
  endpointId: row.endpoint_id,
  endpointName: row.endpoint_name,
  url: row.url,
  format: row.format as WebhookFormat,
  createdAt: row.created_at,
});

export async function listWebhookEndpoints(db: Db): Promise<WebhookEndpoint[]> {
  const rows = await db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).orderBy('endpoint_id').execute();
  return rows.map(toEndpoint);
}

export async function getWebhookEndpoint(db: Db, endpointId: number): Promise<WebhookEndpoint | null> {
  const row = await db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('endpoint_id', '=', endpointId).executeTakeFirst();
  return row ? toEndpoint(row) : null;
}

export async function insertWebhookEndpoint(db: Db, endpoint: { name: string; url: string; format: WebhookFormat; secret: string; createdBy: number; at: Date }): Promise<number> {
  const row = await db
    .insertInto('webhook_endpoints')
    .values({ endpoint_name: endpoint.name, url: endpoint.url, format: endpoint.format, secret: endpoint.secret, created_by: endpoint.createdBy, created_at: endpoint.at })
    .returning('endpoint_id')
    .executeTakeFirstOrThrow();
  return row.endpoint_id;
}

export async function deleteWebhookEndpoint(db: Db, endpointId: number): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('endpoint_id', '=', endpointId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Of the given ids, those that name no endpoint (a policy's step refers to endpoints that exist). */
export async function missingWebhookEndpoints(db: Db, endpointIds: readonly number[]): Promise<number[]> {
  if (endpointIds.length === 0) return [];
  const found = new Set((await db.selectFrom('webhook_endpoints').select('endpoint_id').where('endpoint_id', 'in', [...endpointIds]).execute()).map((row) => row.endpoint_id));
  return [...new Set(endpointIds)].filter((endpointId) => !found.has(endpointId));
}

/** The formats of the endpoints that still exist among `endpointIds` (a step may name a removed one). */
export async function webhookFormatsOf(db: Db, endpointIds: readonly number[]): Promise<{ endpointId: number; format: WebhookFormat }[]> {
  if (endpointIds.length === 0) return [];
  const rows = await db.selectFrom('webhook_endpoints').select(['endpoint_id', 'format']).where('endpoint_id', 'in', [...endpointIds]).orderBy('endpoint_id').execute();
  return rows.map((row) => ({ endpointId: row.endpoint_id, format: row.format as WebhookFormat }));
}

export interface QueuedWebhook {
  endpointId: number;
  storeId: string;
  alertHistoryId: number;
  event: WebhookEvent;
  stepNo: number | null;
  idempotencyKey: string;
  body: string;
  at: Date;
}

/** Queues deliveries in one statement. */
export async function enqueueWebhookDeliveries(trx: Db, deliveries: readonly QueuedWebhook[]): Promise<void> {
  if (deliveries.length === 0) return;
  await trx
    .insertInto('webhook_deliveries')
    .values(deliveries.map((d) => ({ endpoint_id: d.endpointId, store_id: d.storeId, alert_history_id: d.alertHistoryId, event: d.event, step_no: d.stepNo, idempotency_key: d.idempotencyKey, body: d.body, next_attempt_at: d.at, created_at: d.at })))
    .execute();
}

/** The endpoints some fired step posted each alert's opening to (a recovery goes to them). */
export async function endpointsToldAbout(db: Db, storeId: string, alertHistoryIds: readonly number[], openEvent: WebhookEvent): Promise<Map<number, number[]>> {
  if (alertHistoryIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['alert_history_id', 'endpoint_id'])
    .distinct()
    .where('store_id', '=', storeId)
    .where('alert_history_id', 'in', [...alertHistoryIds])
    .where('event', '=', openEvent)
    .orderBy('alert_history_id')
    .orderBy('endpoint_id')
    .execute();
  const told = new Map<number, number[]>();
  for (const row of rows) told.set(Number(row.alert_history_id), [...(told.get(Number(row.alert_history_id)) ?? []), row.endpoint_id]);
  return told;
}

export interface ClaimedWebhook {
  deliveryId: number;
  url: string;
  secret: string;
  body: string;
  event: string;
  idempotencyKey: string;
  attempts: number;
}

/**
 * The oldest delivery due at `now`, locked for the transaction (FOR UPDATE SKIP LOCKED: another
 * worker takes the next one). Null when none is due.
 */
export async function claimNextWebhookDelivery(trx: Db, now: Date): Promise<ClaimedWebhook | null> {
  const row = await trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.endpoint_id', 'd.endpoint_id')
    .select(['d.delivery_id', 'e.url', 'e.secret', 'd.body', 'd.event', 'd.idempotency_key', 'd.attempts'])
    .where('d.state', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .orderBy('d.next_attempt_at')
    .orderBy('d.delivery_id')
    .limit(1)
    .forUpdate('d')
    .skipLocked()
    .executeTakeFirst();
  return row ? { deliveryId: Number(row.delivery_id), url: row.url, secret: row.secret, body: row.body, event: row.event, idempotencyKey: row.idempotency_key, attempts: row.attempts } : null;
}

export async function markWebhookDelivered(trx: Db, deliveryId: number, attempt: { attempts: number; status: number; at: Date }): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ state: 'delivered', attempts: attempt.attempts, last_status: attempt.status, last_error: null, delivered_at: attempt.at })
    .where('delivery_id', '=', deliveryId)
    .execute();
}

/** Records a failed try: due again at `nextAt`, or a dead letter when null. */
export async function markWebhookFailed(trx: Db, deliveryId: number, attempt: { attempts: number; status: number | null; error: string; nextAt: Date | null }): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({
      attempts: attempt.attempts,
      last_status: attempt.status,
      last_error: attempt.error.slice(0, 500),
      ...(attempt.nextAt === null ? { state: 'dead' } : { next_attempt_at: attempt.nextAt }),
    })
    .where('delivery_id', '=', deliveryId)
    .execute();
}

const toDelivery = (row: Selectable<WebhookDeliveryTable> & { endpoint_name: string }): WebhookDelivery => ({
  deliveryId: Number(row.delivery_id),
  endpointId: row.endpoint_id,
  endpointName: row.endpoint_name,
  storeId: row.store_id,
  alertHistoryId: Number(row.alert_history_id),
  event: row.event as WebhookEvent,
  stepNo: row.step_no,
  idempotencyKey: row.idempotency_key,
  state: row.state as WebhookDeliveryState,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  lastStatus: row.last_status,
  lastError: row.last_error,
  deliveredAt: row.delivered_at,
  createdAt: row.created_at,
});

/** The newest deliveries in a state (administrators' view of the dead letters). */
export async function listWebhookDeliveries(db: Db, filter: { state: WebhookDeliveryState; limit: number }): Promise<WebhookDelivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.endpoint_id', 'd.endpoint_id')
    .selectAll('d')
    .select('e.endpoint_name')
    .where('d.state', '=', filter.state)
    .orderBy('d.delivery_id', 'desc')
    .limit(filter.limit)
    .execute();
  return rows.map(toDelivery);
}

export async function getWebhookDelivery(db: Db, deliveryId: number): Promise<WebhookDelivery | null> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.endpoint_id', 'd.endpoint_id')
    .selectAll('d')
    .select('e.endpoint_name')
    .where('d.delivery_id', '=', deliveryId)
    .executeTakeFirst();
  return row ? toDelivery(row) : null;
}

/** A dead letter due again now ("retry now"): one more try; it is dead again if that fails. */
export async function requeueDeadWebhook(db: Db, deliveryId: number, now: Date): Promise<boolean> {
  const result = await db.updateTable('webhook_deliveries').set({ state: 'pending', next_attempt_at: now }).where('delivery_id', '=', deliveryId).where('state', '=', 'dead').executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
