import { type Kysely, sql } from 'kysely';

// What Citus refuses or breaks when the schema is distributed (docs/decisions/225-citus-for-real.md):
// - identity columns: Citus makes reference tables with one into local tables, and the counters of
//   those it accepts restart at 1 on the workers. A plain sequence owned by the column keeps one
//   counter on the coordinator, where every insert is planned.
// - foreign keys with ON UPDATE CASCADE: Citus refuses them on distributed and reference tables.
//   No key that a foreign key holds is ever updated (store_id, equipment_id, company_id, …), so
//   the cascade never ran; the keys keep their ON DELETE actions.
// One statement per step: Citus refuses several commands in one prepared statement.

const IDENTITY_COLUMNS: readonly [table: string, column: string][] = [
  ['audit_log', 'audit_id'],
  ['mail_outbox', 'mail_id'],
  ['usergroups', 'usergroup_id'],
  ['users', 'user_id'],
  ['diagrams', 'diagram_id'],
  ['alert_history', 'alert_history_id'],
  ['notices', 'notice_id'],
  ['regular_reports', 'setting_no'],
  ['report_history', 'history_no'],
  ['haccp_signoffs', 'signoff_id'],
  ['sensors', 'equipment_id'],
  ['alert_schedules', 'schedule_id'],
];

interface CascadingKey {
  table: string;
  name: string;
  definition: string;
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, column] of IDENTITY_COLUMNS) {
    const sequence = `${table}_${column}_seq`;
    // The identity's own sequence carries the counter; read it before the identity (and it) go.
    const { rows } = await sql<{ last: string | null; called: boolean }>`
      select last_value::text as last, is_called as called from ${sql.table(sequence)}`.execute(db);
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} drop identity`.execute(db);
    await sql`create sequence ${sql.table(sequence)} as bigint owned by ${sql.table(table)}.${sql.ref(column)}`.execute(db);
    if (rows[0]) await sql`select setval(${sequence}::regclass, ${rows[0].last}::bigint, ${rows[0].called})`.execute(db);
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set default nextval(${sql.lit(sequence)}::regclass)`.execute(db);
  }
  const { rows: keys } = await sql<CascadingKey>`
    select k.conrelid::regclass::text as table, k.conname as name, pg_get_constraintdef(k.oid) as definition
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    where k.contype = 'f' and k.confupdtype = 'c' and k.connamespace = 'public'::regnamespace and not c.relispartition
    order by 1, 2`.execute(db);
  for (const key of keys) {
    await sql`alter table ${sql.table(key.table)} drop constraint ${sql.ref(key.name)}`.execute(db);
    await sql`alter table ${sql.table(key.table)} add constraint ${sql.ref(key.name)} ${sql.raw(key.definition.replace(' ON UPDATE CASCADE', ''))}`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of IDENTITY_COLUMNS) {
    const sequence = `${table}_${column}_seq`;
    const { rows } = await sql<{ last: string }>`select last_value::text as last from ${sql.table(sequence)}`.execute(db);
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} drop default`.execute(db);
    await sql`drop sequence ${sql.table(sequence)}`.execute(db);
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} add generated always as identity`.execute(db);
    await sql`select setval(pg_get_serial_sequence(${table}, ${column}), ${rows[0].last}::bigint)`.execute(db);
  }
}
