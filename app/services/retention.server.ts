import type { Db } from '~/db/db.server';
import { getEnv } from '~/env.server';
import { type RetentionPolicy, retentionAt } from '~/domain/retention';
import { dropMonthsBefore } from '~/models/measurement-partitions.server';
import { deleteCommentsBefore } from '~/models/measurements.server';

// Retention of readings and buckets (docs/decisions/188-retention.md): the policy in force (the
// environment's months at a time) and the worker's pass that drops what is beyond it.

/** What is kept at `now` under the configured months. */
export function retentionPolicy(now: Date): RetentionPolicy {
  const env = getEnv();
  return retentionAt(now, { readings: env.ONRECO_READINGS_RETENTION_MONTHS, buckets: env.ONRECO_BUCKETS_RETENTION_MONTHS });
}

export interface RetentionPass {
  dropped: string[];
  /** Rows of the default partitions (readings and buckets) beyond retention, deleted. */
  defaultRows: number;
  comments: number;
}

/**
 * Drops the readings' months beyond their retention, then the buckets' (which outlive them), and
 * the comments on readings as their buckets go (the graph shows them on its points).
 */
export async function applyRetention(db: Db, policy: RetentionPolicy): Promise<RetentionPass> {
  const readings = await dropMonthsBefore(db, 'measurements', 'measured_at', policy.readings.keptFrom);
  const buckets = await dropMonthsBefore(db, 'measurement_buckets', 'bucket', policy.buckets.keptFrom);
  const comments = await deleteCommentsBefore(db, policy.buckets.keptFrom);
  return { dropped: [...readings.dropped, ...buckets.dropped], defaultRows: readings.defaultRows + buckets.defaultRows, comments };
}
