import { type Kysely, sql } from 'kysely';

// Sensor settings over time (DESIGN.md "Settings over time") and the BLE sensors a gateway hears
// that are not registered (issue 12). Each sensor's limits, guard, snooze, time constant and
// defrost ranges are kept with the period they were in force; the rows of existing sensors start
// at their creation. A store keeps the latest report of each unregistered address.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table sensor_settings_history (
      store_id varchar(20) not null,
      equipment_id integer not null,
      effective_from timestamptz not null,
      effective_to timestamptz,
      lower_limit numeric(4, 1),
      upper_limit numeric(4, 1),
      guard_time smallint,
      snoozing_time smallint,
      time_constant smallint,
      def_time jsonb not null default '[]',
      primary key (store_id, equipment_id, effective_from),
      foreign key (store_id, equipment_id) references sensors on update cascade on delete cascade,
      check (effective_to is null or effective_to >= effective_from)
    );
    create unique index sensor_settings_history_open on sensor_settings_history (store_id, equipment_id) where effective_to is null;
    insert into sensor_settings_history (store_id, equipment_id, effective_from, effective_to, lower_limit, upper_limit, guard_time, snoozing_time, time_constant, def_time)
      select store_id, equipment_id, created_at, null, lower_limit, upper_limit, guard_time, snoozing_time, time_constant, def_time from sensors;

    create table heard_sensors (
      store_id varchar(20) not null references stores on update cascade on delete cascade,
      serial_no varchar(17) not null,
      format varchar(40) not null,
      temperature numeric(5, 1),
      receive_sensitivity smallint,
      heard_at timestamptz not null,
      reported_at timestamptz not null default now(),
      primary key (store_id, serial_no)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table heard_sensors;
    drop table sensor_settings_history;
  `.execute(db);
}
