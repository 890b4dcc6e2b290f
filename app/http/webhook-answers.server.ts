import { toCompactDateTime } from '~/domain/japan-time';
import type { WebhookDelivery } from '~/domain/webhooks';

/** A delivery as /v1/webhook_delivery answers it (snake_case, Japan-time compact dates). */
export const toWebhookDeliveryItem = (delivery: WebhookDelivery) => ({
  delivery_id: delivery.deliveryId,
  endpoint_id: delivery.endpointId,
  endpoint_name: delivery.endpointName,
  store_id: delivery.storeId,
  alert_history_id: delivery.alertHistoryId,
  event: delivery.event,
  step: delivery.stepNo === null ? null : delivery.stepNo + 1,
  idempotency_key: delivery.idempotencyKey,
  state: delivery.state,
  attempts: delivery.attempts,
  next_attempt_date: delivery.state === 'pending' ? toCompactDateTime(delivery.nextAttemptAt) : null,
  last_status: delivery.lastStatus,
  last_error: delivery.lastError,
  delivered_date: delivery.deliveredAt === null ? null : toCompactDateTime(delivery.deliveredAt),
  created_date: toCompactDateTime(delivery.createdAt),
});
