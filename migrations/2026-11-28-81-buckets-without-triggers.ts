import { type Kysely, sql } from 'kysely';
import { bucketAggregate } from './2026-11-24-90-report-buckets';

// The 10-minute buckets are kept by the writers of measurements from now on (the ingest writer's
// batch, app/models/measurement-buckets.server.ts; docs/decisions/283), not by statement triggers
// with transition tables, which Citus cannot run (decision 225). To be safe the buckets the
// readings still cover are counted again from them; older buckets (whose readings retention
// dropped) stay as they are. One statement per step (decision 225).

const ADDED = ['temperature_sum', 'temperature_count', 'gap_count', 'value_count', 'value_tenths'];
const MARK = ['mark_at', 'mark_temperature', 'mark_error'];
const earlier = (end: 'min' | 'max', beyond: '<' | '>') =>
  `excluded.value_${end} ${beyond} b.value_${end} or b.value_${end} is null or (excluded.value_${end} = b.value_${end} and excluded.${end}_at < b.${end}_at)`;
const NEWER_MARK = `excluded.mark_at > b.mark_at or b.mark_at is null`;

const BIN = `date_bin('10 minutes', measured_at + interval '5 minutes', timestamptz '2000-01-01 00:00:00+00')`;
const COLUMNS = 'store_id, equipment_id, bucket, temperature_sum, temperature_count, gap_count, value_count, value_tenths, value_min, min_at, value_max, max_at, mark_at, mark_temperature, mark_error';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists measurements_buckets_insert on measurements`.execute(db);
  await sql`drop trigger if exists measurements_buckets_delete on measurements`.execute(db);
  await sql`drop function if exists measurement_buckets_add()`.execute(db);
  await sql`drop function if exists measurement_buckets_remove()`.execute(db);
  // The merge of new readings into their buckets, as the insert trigger merged them: sums and counts
  // added, the extremes the earliest of equal values, the mark the latest reading of the bucket's
  // minute. A function, so its plan is cached per connection and a call sends five arrays.
  await sql`
    create or replace function measurement_buckets_merge(p_store_ids text[], p_equipment_ids integer[], p_measured_at timestamptz[], p_temperatures real[], p_errors boolean[])
    returns void language plpgsql as $$
    begin
      insert into measurement_buckets as b (${sql.raw(COLUMNS)})
      ${bucketAggregate(`unnest(p_store_ids, p_equipment_ids, p_measured_at, p_temperatures, p_errors) as r(store_id, equipment_id, measured_at, temperature, error)`)}
      order by 1, 2, 3
      on conflict (store_id, equipment_id, bucket) do update
        set ${sql.raw(ADDED.map((column) => `${column} = b.${column} + excluded.${column}`).join(', '))},
            value_min = least(b.value_min, excluded.value_min),
            min_at = case when ${sql.raw(earlier('min', '<'))} then excluded.min_at else b.min_at end,
            value_max = greatest(b.value_max, excluded.value_max),
            max_at = case when ${sql.raw(earlier('max', '>'))} then excluded.max_at else b.max_at end,
            ${sql.raw(MARK.map((column) => `${column} = case when ${NEWER_MARK} then excluded.${column} else b.${column} end`).join(', '))};
    end $$`.execute(db);
  await sql`delete from measurement_buckets where bucket >= (select min(${sql.raw(BIN)}) from measurements)`.execute(db);
  await sql`insert into measurement_buckets (${sql.raw(COLUMNS)}) ${bucketAggregate('measurements')}`.execute(db);
}

// The triggers are not made again: the code of this version keeps the buckets itself, and triggers beside it would count every reading twice.
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists measurement_buckets_merge(text[], integer[], timestamptz[], real[], boolean[])`.execute(db);
}
