import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { parseWithZod } from '@conform-to/zod';
import { z } from 'zod';
import { Page } from '~/components/page-kit';
import { WebhookDeadLetters, WebhookEndpointForm, WebhookEndpointList } from '~/components/webhooks/webhook-admin';
import { getDb } from '~/db/db.server';
import { formatDateTime } from '~/domain/japan-time';
import { WEBHOOK_SCREEN, WebhookDeliveryRetrySchema, WebhookEndpointCreateSchema, WebhookEndpointDeleteSchema } from '~/domain/webhooks';
import { requireRole } from '~/http/access.server';
import { listWebhookDeliveries, listWebhookEndpoints } from '~/models/webhooks.server';
import { createWebhookEndpoint, removeWebhookEndpoint, retryWebhookDelivery } from '~/services/webhooks.server';

// /webhooks (administrators, システム管理 › Webhook送信先): the chain's endpoints, a new one (its
// secret shown once), and the dead letters with "retry now" (decision 285).

export const meta: MetaFunction = () => [{ title: `${WEBHOOK_SCREEN.title} | On-Reco` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'systemMenu');
  const db = getDb();
  const [endpoints, dead] = await Promise.all([listWebhookEndpoints(db), listWebhookDeliveries(db, { state: 'dead', limit: 100 })]);
  return json({
    endpoints: endpoints.map((endpoint) => ({ ...endpoint, createdAt: formatDateTime(endpoint.createdAt) })),
    dead: dead.map(({ deliveryId, endpointName, storeId, alertHistoryId, event, attempts, lastError, createdAt }) => ({ deliveryId, endpointName, storeId, alertHistoryId, event, attempts, lastError, createdAt: formatDateTime(createdAt) })),
  });
}

const IntentSchema = z.object({ intent: z.enum(['create', 'delete', 'retry']) });

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const formData = await request.formData();
  const db = getDb();
  const now = new Date();
  const intent = IntentSchema.safeParse(Object.fromEntries(formData));
  if (!intent.success) return json({ intent: null, result: null, secret: null, message: WEBHOOK_SCREEN.failed }, { status: 400 });
  if (intent.data.intent === 'create') {
    const submission = parseWithZod(formData, { schema: WebhookEndpointCreateSchema });
    if (submission.status !== 'success') return json({ intent: 'create' as const, result: submission.reply(), secret: null, message: null }, { status: 400 });
    const created = await createWebhookEndpoint(db, viewer, submission.value, now);
    if (!created.ok) return json({ intent: 'create' as const, result: submission.reply({ fieldErrors: Object.fromEntries(Object.entries(created.fields).map(([field, message]) => [field, [message]])) }), secret: null, message: null }, { status: 400 });
    return json({ intent: 'create' as const, result: submission.reply({ resetForm: true }), secret: created.secret, message: WEBHOOK_SCREEN.created });
  }
  if (intent.data.intent === 'delete') {
    const parsed = WebhookEndpointDeleteSchema.safeParse(Object.fromEntries(formData));
    const removed = parsed.success && (await removeWebhookEndpoint(db, viewer, parsed.data.endpoint_id, now));
    return json({ intent: 'delete' as const, result: null, secret: null, message: removed ? WEBHOOK_SCREEN.deleted : WEBHOOK_SCREEN.failed }, { status: removed ? 200 : 404 });
  }
  const parsed = WebhookDeliveryRetrySchema.safeParse(Object.fromEntries(formData));
  const outcome = parsed.success ? await retryWebhookDelivery(db, viewer, parsed.data.delivery_id, now) : 'not-found';
  return json({ intent: 'retry' as const, result: null, secret: null, message: outcome === 'queued' ? WEBHOOK_SCREEN.retried : WEBHOOK_SCREEN.failed }, { status: outcome === 'queued' ? 200 : 409 });
}

export default function WebhooksPage() {
  const { endpoints, dead } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  return (
    <Page title={WEBHOOK_SCREEN.title}>
      <WebhookEndpointForm lastResult={outcome?.intent === 'create' ? outcome.result : null} secret={outcome?.secret ?? null} message={outcome?.message ?? null} failed={outcome ? outcome.message === WEBHOOK_SCREEN.failed : false} />
      <WebhookEndpointList endpoints={endpoints} />
      <WebhookDeadLetters deliveries={dead} />
    </Page>
  );
}
