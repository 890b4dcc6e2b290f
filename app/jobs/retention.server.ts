import { applyRetention, retentionPolicy } from '~/services/retention.server';
import type { Job } from './job.server';

/**
 * Readings beyond ONRECO_READINGS_RETENTION_MONTHS and buckets beyond
 * ONRECO_BUCKETS_RETENTION_MONTHS, dropped a month partition at a time. Daily, and at start so a
 * worker that was down catches up.
 */
export const measurementRetentionJob: Job = {
  name: 'measurement retention',
  schedule: '37 3 * * *',
  runOnStart: true,
  run: async ({ db, now, log }) => {
    const pass = await applyRetention(db, retentionPolicy(now));
    if (pass.dropped.length > 0 || pass.defaultRows > 0 || pass.comments > 0) log.info(pass, 'measurements beyond retention dropped');
  },
};
