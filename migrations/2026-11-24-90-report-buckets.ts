import { type Kysely, sql } from 'kysely';

// The 10-minute buckets also carry what a report needs, so a month report reads ~4,500 bucket
// rows a sensor instead of ~45,000 readings (docs/decisions/149-report-buckets.md): the reading at
// the bucket's mark (the table's row), the lowest and highest value with their instants (summary,
// chart, and "nothing outside the limits here"), an exact sum in tenths and a count (mean), and how
// many readings are errors or have no temperature (where the chart's line breaks, read raw).
// Buckets now exist for every reading, also error-only ones (temperature_count 0; the graph skips
// them). Inserted readings are merged in by the statement trigger as before; a delete recomputes
// the buckets it touched from the readings left.

const BIN_SQL = `date_bin('10 minutes', measured_at + interval '5 minutes', timestamptz '2000-01-01 00:00:00+00')`;
const BIN = sql.raw(BIN_SQL);
const IS_VALUE = sql.raw(`not error and temperature is not null`);
const AT_MARK = sql.raw(`measured_at >= ${BIN_SQL} and measured_at < ${BIN_SQL} + interval '1 minute'`);

const COLUMNS = sql.raw(
  'store_id, equipment_id, bucket, temperature_sum, temperature_count, gap_count, value_count, value_tenths, value_min, min_at, value_max, max_at, mark_at, mark_temperature, mark_error',
);

/**
 * The buckets of the readings in `source` (a table or transition table), grouped as the columns
 * above (also the tests' check of the trigger). The extremes and the mark come from min/max over
 * small arrays (value then instant), one pass without a sort per group, which keeps the trigger
 * cheap for ingest: [value, epoch] for the lowest (earliest of equal ones), [value, −epoch] for
 * the highest (earliest of equal ones), [epoch, value, error] for the mark (the latest reading).
 */
export const bucketAggregate = (source: string) => sql`
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
    from ${sql.raw(source)}
    group by 1, 2, 3
  ) g`;

/** The buckets a delete touched (old_rows), recomputed from the readings left. */
const TOUCHED_SQL = `select distinct store_id, equipment_id, ${BIN_SQL} as bucket from old_rows`;
const TOUCHED = sql.raw(TOUCHED_SQL);

/** The new readings hold the bucket's lowest (highest) value, the earliest of equal ones as a recount would. */
const EARLIER = (end: 'min' | 'max', beyond: '<' | '>') =>
  sql.raw(`excluded.value_${end} ${beyond} b.value_${end} or b.value_${end} is null or (excluded.value_${end} = b.value_${end} and excluded.${end}_at < b.${end}_at)`);

const NEWER_MARK = sql.raw(`excluded.mark_at > b.mark_at or b.mark_at is null`);

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table measurement_buckets
      add column gap_count integer not null default 0,        -- readings that are errors or have no temperature
      add column value_count integer not null default 0,      -- readings with a value (not error, temperature present)
      add column value_tenths bigint not null default 0,      -- their sum in tenths of a degree, exact
      add column value_min real, add column min_at timestamptz,
      add column value_max real, add column max_at timestamptz,
      add column mark_at timestamptz,                         -- the last reading within the bucket's own minute (the table's reading)
      add column mark_temperature real,
      add column mark_error boolean;

    create or replace function measurement_buckets_add() returns trigger language plpgsql as $$
    begin
      insert into measurement_buckets as b (${COLUMNS})
      ${bucketAggregate('new_rows')}
      order by 1, 2, 3
      on conflict (store_id, equipment_id, bucket) do update
        set temperature_sum = b.temperature_sum + excluded.temperature_sum,
            temperature_count = b.temperature_count + excluded.temperature_count,
            gap_count = b.gap_count + excluded.gap_count,
            value_count = b.value_count + excluded.value_count,
            value_tenths = b.value_tenths + excluded.value_tenths,
            value_min = least(b.value_min, excluded.value_min),
            min_at = case when ${EARLIER('min', '<')} then excluded.min_at else b.min_at end,
            value_max = greatest(b.value_max, excluded.value_max),
            max_at = case when ${EARLIER('max', '>')} then excluded.max_at else b.max_at end,
            mark_at = case when ${NEWER_MARK} then excluded.mark_at else b.mark_at end,
            mark_temperature = case when ${NEWER_MARK} then excluded.mark_temperature else b.mark_temperature end,
            mark_error = case when ${NEWER_MARK} then excluded.mark_error else b.mark_error end;
      return null;
    end $$;

    create or replace function measurement_buckets_remove() returns trigger language plpgsql as $$
    begin
      delete from measurement_buckets b using (${TOUCHED}) t
        where b.store_id = t.store_id and b.equipment_id = t.equipment_id and b.bucket = t.bucket;
      insert into measurement_buckets (${COLUMNS})
      ${bucketAggregate(`(select m.* from measurements m join (${TOUCHED_SQL}) t
                      on m.store_id = t.store_id and m.equipment_id = t.equipment_id
                     and m.measured_at >= t.bucket - interval '5 minutes' and m.measured_at < t.bucket + interval '5 minutes') m`)};
      return null;
    end $$;

    delete from measurement_buckets;
    insert into measurement_buckets (${COLUMNS}) ${bucketAggregate('measurements')};
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function measurement_buckets_add() returns trigger language plpgsql as $$
    begin
      insert into measurement_buckets as b (store_id, equipment_id, bucket, temperature_sum, temperature_count)
      select store_id, equipment_id, ${BIN}, sum(temperature::float8), count(*)
      from new_rows where temperature is not null group by 1, 2, 3 order by 1, 2, 3
      on conflict (store_id, equipment_id, bucket) do update
        set temperature_sum = b.temperature_sum + excluded.temperature_sum,
            temperature_count = b.temperature_count + excluded.temperature_count;
      return null;
    end $$;
    create or replace function measurement_buckets_remove() returns trigger language plpgsql as $$
    begin
      with gone as (
        select store_id, equipment_id, date_bin('10 minutes', measured_at + interval '5 minutes', timestamptz '2000-01-01 00:00:00+00') as bucket,
               sum(temperature::float8) as temperature_sum, count(*) as temperature_count
        from old_rows
        where temperature is not null
        group by 1, 2, 3
      )
      update measurement_buckets b
        set temperature_sum = b.temperature_sum - gone.temperature_sum,
            temperature_count = b.temperature_count - gone.temperature_count
        from gone
        where b.store_id = gone.store_id and b.equipment_id = gone.equipment_id and b.bucket = gone.bucket;
      delete from measurement_buckets b
        using (select distinct store_id, equipment_id, date_bin('10 minutes', measured_at + interval '5 minutes', timestamptz '2000-01-01 00:00:00+00') as bucket
               from old_rows where temperature is not null) gone
        where b.store_id = gone.store_id and b.equipment_id = gone.equipment_id and b.bucket = gone.bucket and b.temperature_count <= 0;
      return null;
    end $$;

    delete from measurement_buckets where temperature_count = 0;
    alter table measurement_buckets
      drop column gap_count, drop column value_count, drop column value_tenths, drop column value_min, drop column min_at,
      drop column value_max, drop column max_at, drop column mark_at, drop column mark_temperature, drop column mark_error;
  `.execute(db);
}
