import { type Kysely, sql } from 'kysely';

// Daily equipment indicators per sensor (issue 32, decision 298), written by the nightly worker
// job. Keyed by store_id first: distributed by store_id with the store's other data (Citus).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table equipment_indicators (
      store_id varchar(20) not null,
      equipment_id integer not null,
      day date not null,
      recovery_minutes real,
      minutes_above_midpoint integer,
      night_average real,
      damped_range real,
      computed_at timestamptz not null,
      primary key (store_id, equipment_id, day)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table equipment_indicators`.execute(db);
}
