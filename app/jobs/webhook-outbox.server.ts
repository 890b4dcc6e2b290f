import { deliverPendingWebhooks } from '~/services/webhooks.server';
import type { Job } from './job.server';

/** Webhook deliveries leave within a second or two of the step that queued them; retries when due. */
export const webhookOutboxJob: Job = {
  name: 'webhook outbox',
  schedule: '* * * * * *',
  queue: true,
  run: async ({ db, now, log }) => {
    await deliverPendingWebhooks(db, now, log);
  },
};
