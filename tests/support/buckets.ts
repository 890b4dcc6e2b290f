import { sql } from 'kysely';
import type { Db } from '../../app/db/db.server';
import { bucketAggregateSql } from '../../app/models/measurement-buckets.server';

const COLUMNS = sql`store_id, equipment_id, bucket, temperature_sum::numeric(12, 3), temperature_count, gap_count, value_count, value_tenths, value_min, min_at, value_max, max_at, mark_at, mark_temperature, mark_error`;
const NAMES = sql`store_id, equipment_id, bucket, temperature_sum, temperature_count, gap_count, value_count, value_tenths, value_min, min_at, value_max, max_at, mark_at, mark_temperature, mark_error`;

/**
 * The bucket rows that differ from a count from scratch of the readings, both ways (docs/decisions/283),
 * for the stores named (all when none) and buckets from `from` on. Both lists are empty when the buckets are right.
 */
export async function bucketDifferences(db: Db, options: { storeIds?: string[]; from?: Date } = {}) {
  const where = sql`bucket >= ${options.from ?? new Date(0)} and (${options.storeIds ?? null}::text[] is null or store_id = any(${options.storeIds ?? null}::text[]))`;
  const kept = sql`select ${COLUMNS} from measurement_buckets where ${where}`;
  const counted = sql`select ${COLUMNS} from (${sql.raw(bucketAggregateSql('measurements'))}) r(${NAMES}) where ${where}`;
  return {
    onlyKept: (await sql`(${kept}) except (${counted})`.execute(db)).rows,
    onlyCounted: (await sql`(${counted}) except (${kept})`.execute(db)).rows,
  };
}
