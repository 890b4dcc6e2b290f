import { json } from '@remix-run/node';
import { createWebhookEndpoint as createCall, deleteWebhookEndpoint as deleteCall, listWebhookEndpoints as listCall } from '~/domain/api/webhooks';
import { toCompactDateTime } from '~/domain/japan-time';
import type { WebhookEndpoint } from '~/domain/webhooks';
import { apiError } from '~/http/access.server';
import { invalidRequest } from '~/http/api.server';
import { apiAction, apiActions, apiLoader } from '~/http/api-route.server';
import { getWebhookEndpoint, listWebhookEndpoints } from '~/models/webhooks.server';
import { createWebhookEndpoint, removeWebhookEndpoint } from '~/services/webhooks.server';

// /v1/webhook_endpoint: the chain's webhook endpoints, for administrators (decision 285).

const toItem = (endpoint: WebhookEndpoint) => ({
  endpoint_id: endpoint.endpointId,
  endpoint_name: endpoint.endpointName,
  url: endpoint.url,
  format: endpoint.format,
  created_date: toCompactDateTime(endpoint.createdAt),
});

export const loader = apiLoader(listCall, async ({ db }) => ({ endpoints: (await listWebhookEndpoints(db)).map(toItem) }));

export const action = apiActions(
  apiAction(createCall, async ({ viewer, input, db, now }) => {
    const created = await createWebhookEndpoint(db, viewer, input, now);
    if (!created.ok) throw invalidRequest(created.fields);
    const { endpointId, secret } = created;
    const endpoint = await getWebhookEndpoint(db, endpointId);
    if (!endpoint) throw apiError(404, 'not_found', `No webhook endpoint ${endpointId}.`);
    return json({ ...toItem(endpoint), secret }, { status: 201 });
  }),
  apiAction(deleteCall, async ({ viewer, input, db, now }) => {
    if (!(await removeWebhookEndpoint(db, viewer, input.endpoint_id, now))) throw apiError(404, 'not_found', `No webhook endpoint ${input.endpoint_id}.`);
    return { endpoint_id: input.endpoint_id };
  }),
);
