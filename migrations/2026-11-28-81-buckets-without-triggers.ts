import { type Kysely, sql } from 'kysely';
import { bucketAggregate } from './2026-11-24-90-report-buckets';

// The 10-minute buckets are kept by the writers of measurements from now on (the ingest writer's
// batch, app/models/measurement-buckets.server.ts; docs/decisions/283), not by statement triggers
// with transition tables, which Citus cannot run (decision 225). To be safe the buckets the
// readings still cover are counted again from them; older buckets (whose readings retention
// dropped) stay as they are. One statement per step (decision 225).

const BIN = `date_bin('10 minutes', measured_at + interval '5 minutes', timestamptz '2000-01-01 00:00:00+00')`;
const COLUMNS = 'store_id, equipment_id, bucket, temperature_sum, temperature_count, gap_count, value_count, value_tenths, value_min, min_at, value_max, max_at, mark_at, mark_temperature, mark_error';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists measurements_buckets_insert on measurements`.execute(db);
  await sql`drop trigger if exists measurements_buckets_delete on measurements`.execute(db);
  await sql`drop function if exists measurement_buckets_add()`.execute(db);
  await sql`drop function if exists measurement_buckets_remove()`.execute(db);
  await sql`delete from measurement_buckets where bucket >= (select min(${sql.raw(BIN)}) from measurements)`.execute(db);
  await sql`insert into measurement_buckets (${sql.raw(COLUMNS)}) ${bucketAggregate('measurements')}`.execute(db);
}

// Not undone: the code of this version keeps the buckets itself, and the triggers beside it would count every reading twice.
export async function down(): Promise<void> {}
