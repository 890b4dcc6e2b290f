import { deleteJobRunsBefore } from '~/models/job-locks.server';
import type { Job } from './job.server';

/** Ticks are kept two days: long enough to see which worker ran what, short enough to stay small. */
const KEEP_MS = 2 * 86_400_000;

export const jobRunsCleanupJob: Job = {
  name: 'job run cleanup',
  schedule: '23 * * * *',
  run: async ({ db, now }) => {
    await deleteJobRunsBefore(db, new Date(now.getTime() - KEEP_MS));
  },
};
