import { deleteExpiredLimits } from '~/models/request-limits.server';
import type { Job } from './job.server';

/** Counters of sign-ins, passcode mails and pairings whose window ended are removed, hourly. */
export const requestLimitsJob: Job = {
  name: 'request limit cleanup',
  schedule: '41 * * * *',
  run: async ({ db, now }) => {
    await deleteExpiredLimits(db, now);
  },
};
