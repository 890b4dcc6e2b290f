import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { fromJapan, japanParts } from '~/domain/japan-time';

// Measurements are range-partitioned by month (Japan months, so a month's report reads one
// partition). Readings for a month without a partition land in measurements_default; when
// that month's partition is created, its rows move out of the default partition first,
// because PostgreSQL refuses to attach a range the default partition already holds.

function partitionName(year: number, month: number): string {
  return `measurements_${year}${String(month).padStart(2, '0')}`;
}

/** Creates the monthly partitions covering [from, to] (inclusive of both months). Idempotent. */
export async function ensureMeasurementPartitions(db: Db, from: Date, to: Date): Promise<void> {
  const first = japanParts(from);
  const last = japanParts(to);
  for (let year = first.year, month = first.month; year * 12 + month <= last.year * 12 + last.month; ) {
    await ensureMonthPartition(db, year, month);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
}

async function ensureMonthPartition(db: Db, year: number, month: number): Promise<void> {
  const start = fromJapan(year, month, 1).toISOString();
  const end = fromJapan(year, month + 1, 1).toISOString();
  await db.transaction().execute(async (trx) => {
    // One creator at a time (worker and start-up may race); the lock ends with the transaction.
    await sql`select pg_advisory_xact_lock(hashtext('measurement-partitions'))`.execute(trx);
    await attachMonth(trx, 'measurements', 'measured_at', partitionName(year, month), start, end);
    // The graphs' 10-minute buckets (kept by a trigger on measurements) are partitioned the same way.
    await attachMonth(trx, 'measurement_buckets', 'bucket', `measurement_buckets_${year}${String(month).padStart(2, '0')}`, start, end);
  });
}

async function attachMonth(trx: Db, parent: 'measurements' | 'measurement_buckets', column: string, name: string, start: string, end: string): Promise<void> {
  const exists = await sql<{ found: boolean }>`select to_regclass(${name}) is not null as found`.execute(trx);
  if (exists.rows[0]?.found) return;
  const table = sql.table(name);
  await sql`create table ${table} (like ${sql.table(parent)} including defaults including constraints)`.execute(trx);
  await sql`
    with moved as (
      delete from ${sql.table(`${parent}_default`)}
      where ${sql.ref(column)} >= ${start}::timestamptz and ${sql.ref(column)} < ${end}::timestamptz
      returning *
    )
    insert into ${table} select * from moved`.execute(trx);
  await sql`alter table ${sql.table(parent)} attach partition ${table} for values from (${sql.lit(start)}) to (${sql.lit(end)})`.execute(trx);
}
