import { sendPendingMails } from '~/services/outbox.server';
import type { Job } from './job.server';

/** Mails leave within a second or two of the transaction that wrote them. */
export const mailOutboxJob: Job = {
  name: 'mail outbox',
  schedule: '* * * * * *',
  queue: true,
  run: async ({ db, now, log }) => {
    await sendPendingMails(db, now, log);
  },
};
