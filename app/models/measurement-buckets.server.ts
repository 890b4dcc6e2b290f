import { type Compilable, type Expression, type Insertable, sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { MeasurementTable } from '~/db/schema';

// The 10-minute buckets (docs/decisions/030, 149) are kept by this module, in the writer's
// transaction (docs/decisions/283): every insert into measurements merges the rows it actually
// inserted into their buckets, and every delete recounts the buckets it touched from the readings
// left. No trigger does it (Citus runs none, decision 225). Retention drops readings' months and
// leaves their buckets, which outlive them (decision 188).

/** The bucket of a reading: its time rounded to the nearest 10 minutes. */
const BIN = `date_bin('10 minutes', measured_at + interval '5 minutes', timestamptz '2000-01-01 00:00:00+00')`;
const IS_VALUE = `not error and temperature is not null`;
const AT_MARK = `measured_at >= ${BIN} and measured_at < ${BIN} + interval '1 minute'`;

const COLUMNS = 'store_id, equipment_id, bucket, temperature_sum, temperature_count, gap_count, value_count, value_tenths, value_min, min_at, value_max, max_at, mark_at, mark_temperature, mark_error';

/** What a source of readings must offer to be counted into buckets. */
export const BUCKET_INPUT = ['store_id', 'equipment_id', 'measured_at', 'temperature', 'error'] as const;

/**
 * The buckets of the readings in `source` (a table or a subquery with the BUCKET_INPUT columns),
 * as the table's columns. The extremes and the mark come from min/max over small arrays (value
 * then instant), one pass without a sort per group: [value, epoch] for the lowest (earliest of
 * equal ones), [value, −epoch] for the highest (earliest of equal ones), [epoch, value, error] for
 * the mark (the latest reading within the bucket's own minute).
 */
export function bucketAggregateSql(source: string): string {
  return `
  select store_id, equipment_id, bucket, temperature_sum, temperature_count, gap_count, value_count, value_tenths,
         lo[1]::real, to_timestamp(lo[2]), hi[1]::real, to_timestamp(-hi[2]), to_timestamp(mark[1]), mark[2]::real, mark[3] = 1
  from (
    select store_id, equipment_id, ${BIN} as bucket,
           coalesce(sum(temperature::float8), 0) as temperature_sum, count(temperature)::int as temperature_count,
           count(*) filter (where not (${IS_VALUE}))::int as gap_count,
           count(*) filter (where ${IS_VALUE})::int as value_count,
           coalesce(sum(round(temperature::float8 * 10)::bigint) filter (where ${IS_VALUE}), 0) as value_tenths,
           min(array[temperature::float8, date_part('epoch', measured_at)]) filter (where ${IS_VALUE}) as lo,
           max(array[temperature::float8, -date_part('epoch', measured_at)]) filter (where ${IS_VALUE}) as hi,
           max(array[date_part('epoch', measured_at), temperature::float8, error::int]) filter (where ${AT_MARK}) as mark
    from ${source}
    group by 1, 2, 3
  ) g`;
}

/**
 * A statement that counts the readings of `source` (as `n`) and merges them (new readings only: a reading counted twice
 * stays counted twice) into their buckets through `measurement_buckets_merge` (migration
 * 2026-11-28-81: sums and counts added, the extremes the earliest of equal values, the mark the
 * latest reading of the bucket's minute). Plain text, so that the ingest floor's bare node-pg
 * server (tests/bench) runs the same merge.
 */
export function mergeIntoBucketsSql(source: string): string {
  return `select count(*)::int as n, measurement_buckets_merge(array_agg(store_id), array_agg(equipment_id), array_agg(measured_at), array_agg(temperature), array_agg(error)) as merged from ${source}`;
}

/** A reading newly stored, as its bucket needs it. */
export interface BucketReading {
  equipmentId: number;
  measuredAt: Date;
  temperature: number | null;
  error: boolean;
}

/**
 * Adds readings just inserted (by insertMeasurements: duplicates already left out) to their
 * buckets: one statement for a whole ingest batch of many stores, in the caller's transaction.
 */
export async function addToBuckets(trx: Db, stores: readonly { storeId: string; readings: readonly BucketReading[] }[]): Promise<void> {
  const storeIds: string[] = [];
  const equipmentIds: number[] = [];
  const measuredAt: Date[] = [];
  const temperatures: (number | null)[] = [];
  const errors: boolean[] = [];
  for (const { storeId, readings } of stores) {
    for (const reading of readings) {
      storeIds.push(storeId);
      equipmentIds.push(reading.equipmentId);
      measuredAt.push(reading.measuredAt);
      temperatures.push(reading.temperature);
      errors.push(reading.error);
    }
  }
  if (storeIds.length === 0) return;
  await sql`select measurement_buckets_merge(${storeIds}::text[], ${equipmentIds}::int[], ${measuredAt}::timestamptz[], ${temperatures}::real[], ${errors}::boolean[])`.execute(trx);
}

/**
 * Runs a set-based insert into measurements and merges the rows it inserted into their buckets,
 * in one statement. The insert must return BUCKET_INPUT (and skip repeats with ON CONFLICT DO
 * NOTHING where they can happen). Returns the number of readings inserted.
 */
export async function insertMeasurementsWithBuckets(db: Db, insert: Expression<unknown> | Compilable): Promise<number> {
  const { rows } = await sql<{ n: number }>`with stored as (${insert}) ${sql.raw(mergeIntoBucketsSql('stored'))}`.execute(db);
  return rows[0].n;
}

/** Inserts readings given as rows (fixtures, imports), repeats skipped, with their buckets. */
export function insertMeasurementRows(db: Db, rows: readonly Insertable<MeasurementTable>[]): Promise<number> {
  if (rows.length === 0) return Promise.resolve(0);
  return insertMeasurementsWithBuckets(
    db,
    db.insertInto('measurements').values([...rows]).onConflict((oc) => oc.doNothing()).returning([...BUCKET_INPUT]),
  );
}

export interface MeasurementFilter {
  storeIds?: readonly string[];
  equipmentIds?: readonly number[];
  from?: Date;
  /** Exclusive. */
  until?: Date;
}

/**
 * Deletes the readings the filter names and recounts the buckets they were in from the readings
 * left, in one statement (a bucket left with no reading goes). Returns the readings deleted.
 */
export async function deleteMeasurements(db: Db, filter: MeasurementFilter): Promise<number> {
  const where = [sql`true`];
  if (filter.storeIds) where.push(sql`store_id = any(${[...filter.storeIds]}::text[])`);
  if (filter.equipmentIds) where.push(sql`equipment_id = any(${[...filter.equipmentIds]}::int[])`);
  if (filter.from) where.push(sql`measured_at >= ${filter.from}`);
  if (filter.until) where.push(sql`measured_at < ${filter.until}`);
  // One snapshot for every part: the readings scanned still include those deleted, so they are left out by key.
  const { rows } = await sql<{ n: number }>`
    with gone as (
      delete from measurements where ${sql.join(where, sql` and `)}
      returning store_id, equipment_id, measured_at
    ), touched as (
      select distinct store_id, equipment_id, ${sql.raw(BIN)} as bucket from gone
    ), kept as (
      select m.store_id, m.equipment_id, m.measured_at, m.temperature, m.error
      from measurements m
      join touched t on m.store_id = t.store_id and m.equipment_id = t.equipment_id
        and m.measured_at >= t.bucket - interval '5 minutes' and m.measured_at < t.bucket + interval '5 minutes'
      where not exists (select from gone g where g.store_id = m.store_id and g.equipment_id = m.equipment_id and g.measured_at = m.measured_at)
    ), recount as (
      ${sql.raw(bucketAggregateSql('kept'))}
    ), emptied as (
      delete from measurement_buckets b using touched t
      where b.store_id = t.store_id and b.equipment_id = t.equipment_id and b.bucket = t.bucket
        and not exists (select from recount r where r.store_id = t.store_id and r.equipment_id = t.equipment_id and r.bucket = t.bucket)
    ), replaced as (
      insert into measurement_buckets as b (${sql.raw(COLUMNS)})
      select * from recount
      on conflict (store_id, equipment_id, bucket) do update
        set ${sql.raw(COLUMNS.split(', ').slice(3).map((column) => `${column} = excluded.${column}`).join(', '))}
    )
    select count(*)::int as n from gone`.execute(db);
  return rows[0].n;
}
