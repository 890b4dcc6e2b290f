import { listWebhookDeliveries as listCall } from '~/domain/api/webhooks';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listWebhookDeliveries } from '~/models/webhooks.server';
import { toWebhookDeliveryItem } from '~/http/webhook-answers.server';

// GET /v1/webhook_delivery: the newest deliveries of a state, the dead letters by default (decision 285).
export const loader = apiLoader(listCall, async ({ input, db }) => ({ deliveries: (await listWebhookDeliveries(db, input)).map(toWebhookDeliveryItem) }));

export const action = apiNotAllowed(listCall.path);
