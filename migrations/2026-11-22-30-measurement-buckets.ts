import { type Kysely, sql } from 'kysely';

// The temperature graphs read 10-minute buckets rather than raw readings (docs/decisions/030-graphs.md):
// each sensor's readings rounded to the nearest 10 minutes, kept as a sum and a count so that
// any average (10 min, 30 min, an hour) is exact. A statement-level trigger on measurements
// keeps them, so every writer (gateway ingest, demo seed, imports) is covered in the same
// transaction, and rows skipped by ON CONFLICT DO NOTHING (duplicates) are not counted.
// Range-partitioned by month like measurements; the partitions are created beside the
// measurements' ones (app/models/measurement-partitions.server.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table measurement_buckets (
      store_id varchar(20) not null,
      equipment_id integer not null,
      bucket timestamptz not null,                 -- reading times rounded to the nearest 10 minutes
      temperature_sum double precision not null,   -- of the readings with a temperature (error readings left out)
      temperature_count integer not null,
      primary key (store_id, equipment_id, bucket)
    ) partition by range (bucket);
    create table measurement_buckets_default partition of measurement_buckets default;

    create function measurement_buckets_add() returns trigger language plpgsql as $$
    begin
      insert into measurement_buckets as b (store_id, equipment_id, bucket, temperature_sum, temperature_count)
      select store_id, equipment_id, date_bin('10 minutes', measured_at + interval '5 minutes', timestamptz '2000-01-01 00:00:00+00'),
             sum(temperature::float8), count(*)
      from new_rows
      where temperature is not null
      group by 1, 2, 3
      order by 1, 2, 3
      on conflict (store_id, equipment_id, bucket) do update
        set temperature_sum = b.temperature_sum + excluded.temperature_sum,
            temperature_count = b.temperature_count + excluded.temperature_count;
      return null;
    end $$;

    create function measurement_buckets_remove() returns trigger language plpgsql as $$
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

    create trigger measurements_buckets_insert after insert on measurements
      referencing new table as new_rows for each statement execute function measurement_buckets_add();
    create trigger measurements_buckets_delete after delete on measurements
      referencing old table as old_rows for each statement execute function measurement_buckets_remove();

    insert into measurement_buckets (store_id, equipment_id, bucket, temperature_sum, temperature_count)
      select store_id, equipment_id, date_bin('10 minutes', measured_at + interval '5 minutes', timestamptz '2000-01-01 00:00:00+00'),
             sum(temperature::float8), count(*)
      from measurements
      where temperature is not null
      group by 1, 2, 3;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop trigger measurements_buckets_insert on measurements;
    drop trigger measurements_buckets_delete on measurements;
    drop function measurement_buckets_add();
    drop function measurement_buckets_remove();
    drop table measurement_buckets;
  `.execute(db);
}
