import { deleteExpiredPins } from '~/models/gateways.server';
import type { Job } from './job.server';

/** Expired gateway PINs are removed, so the store management page offers a reissue. */
export const pinExpiryJob: Job = {
  name: 'PIN expiry',
  schedule: '* * * * *',
  run: async ({ db, now, log }) => {
    const removed = await deleteExpiredPins(db, now);
    if (removed > 0) log.info({ removed }, 'expired gateway PINs removed');
  },
};
