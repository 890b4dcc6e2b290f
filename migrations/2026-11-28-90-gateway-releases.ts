import { type Kysely, sql } from 'kysely';

// Gateway releases and rollouts (issue 27 part 2, decision 291): the signed bundles the console
// keeps, the desired version of each store group rolled out in waves, and each box's failed
// update (rolled back by itself). One statement per step (Citus, decision 225).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table gateway_releases (
      version text primary key,
      bundle bytea not null,
      sha256 text not null,
      signature text not null,
      size_bytes integer not null,
      uploaded_at timestamptz not null,
      uploaded_by integer
    )`.execute(db);
  await sql`
    create table gateway_rollouts (
      storegroup_id varchar(5) primary key references storegroups (storegroup_id) on delete cascade,
      version text not null,
      wave_percent integer not null check (wave_percent between 1 and 100),
      paused boolean not null default false,
      started_at timestamptz not null,
      updated_at timestamptz not null,
      updated_by integer
    )`.execute(db);
  await sql`
    create table gateway_update_failures (
      store_id varchar(20) not null references stores (store_id) on delete cascade,
      version text not null,
      reason text not null,
      reported_at timestamptz not null,
      primary key (store_id, version)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table gateway_update_failures`.execute(db);
  await sql`drop table gateway_rollouts`.execute(db);
  await sql`drop table gateway_releases`.execute(db);
}
