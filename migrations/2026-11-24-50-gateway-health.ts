import { type Kysely, sql } from 'kysely';

// Gateway health (issue 16, docs/decisions/160-162): the latest report per store, with the state of
// the two store-level health alarms, and 30 days of history (purged by the worker's job).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table gateway_health (
      store_id varchar(20) primary key references stores on update cascade on delete cascade,
      reported_at timestamptz not null,
      received_at timestamptz not null,
      version varchar(64) not null,
      uptime_seconds bigint not null,
      buffer_depth integer not null,
      buffer_capacity integer not null,
      oldest_unsent_at timestamptz,
      disk_free_bytes bigint,
      disk_total_bytes bigint,
      ble_adapter varchar(16) not null,
      sensors_heard integer not null,
      lte_rssi smallint,
      dropped_total bigint not null,
      buffer_alarm boolean not null default false,
      loss_alarm boolean not null default false
    );
    create table gateway_health_history (
      store_id varchar(20) not null references stores on update cascade on delete cascade,
      received_at timestamptz not null,
      reported_at timestamptz not null,
      version varchar(64) not null,
      uptime_seconds bigint not null,
      buffer_depth integer not null,
      buffer_capacity integer not null,
      oldest_unsent_at timestamptz,
      disk_free_bytes bigint,
      disk_total_bytes bigint,
      ble_adapter varchar(16) not null,
      sensors_heard integer not null,
      lte_rssi smallint,
      dropped_total bigint not null,
      primary key (store_id, received_at)
    );
    create index gateway_health_history_received on gateway_health_history (received_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table gateway_health_history; drop table gateway_health;`.execute(db);
}
