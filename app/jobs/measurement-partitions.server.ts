import { ensureMeasurementPartitions } from '~/models/measurement-partitions.server';
import type { Job } from './job.server';

const AHEAD_MS = 62 * 86400_000;

/** Partitions for this month and the next two exist before any reading needs them. */
export const measurementPartitionsJob: Job = {
  name: 'measurement partitions',
  schedule: '17 3 * * *',
  run: ({ db, now }) => ensureMeasurementPartitions(db, now, new Date(now.getTime() + AHEAD_MS)),
};
