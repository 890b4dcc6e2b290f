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
    // The graphs' 10-minute buckets (measurement-buckets.server.ts) are partitioned the same way.
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

// ---- retention (docs/decisions/188-retention.md) -----------------------------------------------

type Partitioned = 'measurements' | 'measurement_buckets';

export interface MonthPartition {
  name: string;
  from: Date;
  /** Exclusive. */
  to: Date;
}

/** The month partitions of a table with their bounds, oldest first (the default partition left out). */
export async function listMonthPartitions(db: Db, parent: Partitioned): Promise<MonthPartition[]> {
  // The bounds as PostgreSQL prints them, read back by PostgreSQL itself (whatever its DateStyle).
  const rows = await sql<{ name: string; from: Date; to: Date }>`
    select name, bounds[1]::timestamptz as "from", bounds[2]::timestamptz as "to"
    from (
      select c.relname as name, regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\) TO \\(''([^'']+)''\\)') as bounds
      from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      where i.inhparent = ${parent}::regclass
    ) p
    where bounds is not null
    order by 2`.execute(db);
  return rows.rows.map((row) => ({ name: row.name, from: new Date(row.from), to: new Date(row.to) }));
}

/**
 * Drops the month partitions of `parent` that end at or before `keptFrom`, each detached and
 * dropped in its own short transaction (never a row-by-row delete), and deletes the default
 * partition's rows older than `keptFrom` (readings of a month that never had a partition).
 * Dropping readings leaves their buckets, which outlive them (decision 188), so this is not a
 * delete of measurements-buckets.server.ts. Returns the names dropped.
 */
export async function dropMonthsBefore(db: Db, parent: Partitioned, column: 'measured_at' | 'bucket', keptFrom: Date): Promise<{ dropped: string[]; defaultRows: number }> {
  const dropped: string[] = [];
  for (const partition of await listMonthPartitions(db, parent)) {
    if (partition.to > keptFrom) break;
    await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('measurement-partitions'))`.execute(trx);
      // DETACH takes the parent's ACCESS EXCLUSIVE lock: rather fail (retried the next run) than
      // queue ingest behind a long report read.
      await sql`set local lock_timeout = '10s'`.execute(trx);
      const still = await sql<{ found: boolean }>`select to_regclass(${partition.name}) is not null as found`.execute(trx);
      if (!still.rows[0]?.found) return;
      await sql`alter table ${sql.table(parent)} detach partition ${sql.table(partition.name)}`.execute(trx);
      await sql`drop table ${sql.table(partition.name)}`.execute(trx);
      dropped.push(partition.name);
    });
  }
  const removed = await sql`delete from ${sql.table(`${parent}_default`)} where ${sql.ref(column)} < ${keptFrom}`.execute(db);
  return { dropped, defaultRows: Number(removed.numAffectedRows ?? 0) };
}
