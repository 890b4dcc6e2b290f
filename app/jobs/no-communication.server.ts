import { checkSilence } from '~/services/silence.server';
import type { Job } from './job.server';

/**
 * No-communication and gateway-down alerts, and re-notification of silent sensors. Every 15 s
 * rather than every minute: a threshold that passes just after a run is then alerted (and
 * mailed) well inside the minute; the check is one indexed query.
 */
export const noCommunicationJob: Job = {
  name: 'no-communication check',
  schedule: '*/15 * * * * *',
  run: async ({ db, now }) => {
    await checkSilence(db, now);
  },
};
