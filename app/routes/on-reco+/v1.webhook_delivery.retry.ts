import { retryWebhookDelivery as retryCall } from '~/domain/api/webhooks';
import { apiError } from '~/http/access.server';
import { apiAction, apiActions, apiNotAllowed } from '~/http/api-route.server';
import { retryWebhookDelivery } from '~/services/webhooks.server';

// POST /v1/webhook_delivery/retry: "retry now" on a dead letter (decision 285).
export const loader = apiNotAllowed(retryCall.path);

export const action = apiActions(
  apiAction(retryCall, async ({ viewer, input, db, now }) => {
    const result = await retryWebhookDelivery(db, viewer, input.delivery_id, now);
    if (result === 'not-found') throw apiError(404, 'not_found', `No webhook delivery ${input.delivery_id}.`);
    if (result === 'not-dead') throw apiError(409, 'invalid_state', 'Only a dead delivery is retried by hand; this one is pending or delivered.');
    return { delivery_id: input.delivery_id, state: 'pending' as const };
  }),
);
