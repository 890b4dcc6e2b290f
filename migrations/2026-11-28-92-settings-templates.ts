import { type Kysely, sql } from 'kysely';

// Settings templates (issue 32, decision 295): per furniture kind (icon_kind) the settings a
// sensor keeps over time. Applying one writes the sensors and their settings history; the
// template itself keeps no copy of what it was applied to (the audit trail and the history do).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table settings_templates (
      template_id serial primary key,
      template_name varchar(100) not null,
      icon_kind smallint not null unique,
      lower_limit numeric(4, 1),
      upper_limit numeric(4, 1),
      guard_time smallint,
      snoozing_time smallint,
      time_constant smallint not null default 100,
      def_time jsonb not null default '[]',
      updated_at timestamptz not null default now(),
      updated_by integer references users on delete set null
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table settings_templates`.execute(db);
}
