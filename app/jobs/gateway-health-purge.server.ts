import { HEALTH_HISTORY_DAYS } from '~/domain/gateway-health';
import { purgeHealthHistory } from '~/models/gateway-health.server';
import type { Job } from './job.server';

/** Gateway health history is kept 30 days (issue 16); the latest report per store stays. */
export const gatewayHealthPurgeJob: Job = {
  name: 'gateway health purge',
  schedule: '17 * * * *',
  run: async ({ db, now, log }) => {
    const removed = await purgeHealthHistory(db, new Date(now.getTime() - HEALTH_HISTORY_DAYS * 86_400_000));
    if (removed > 0) log.info({ removed }, 'gateway health history older than 30 days removed');
  },
};
