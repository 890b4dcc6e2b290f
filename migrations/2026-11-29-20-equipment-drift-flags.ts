import { type Kysely, sql } from 'kysely';

// The drift rule's findings per sensor, Japan day and indicator (issue 32, decision 312), written
// by the nightly equipment indicators job after the day's indicators. `flagged` marks the second
// and later consecutive drifting day: the sensor is flagged from that day.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table equipment_drift_flags (
      store_id varchar(20) not null,
      equipment_id integer not null,
      day date not null,
      indicator varchar(24) not null,
      value real not null,
      own_median real not null,
      own_z real not null,
      peer_median real not null,
      peer_z real not null,
      flagged boolean not null,
      computed_at timestamptz not null,
      primary key (store_id, equipment_id, day, indicator)
    )`.execute(db);
  await sql`create index equipment_drift_flags_flagged_day on equipment_drift_flags (day) where flagged`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table equipment_drift_flags`.execute(db);
}
