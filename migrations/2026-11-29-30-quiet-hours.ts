import { type Kysely, sql } from 'kysely';

// A user's quiet hours, in minutes of the day, Japan time (issue 28, decision 315): both or neither;
// start after end spans midnight. Escalation steps that allow it hold this user's mail until the end.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users
    add column quiet_start_minute smallint check (quiet_start_minute between 0 and 1439),
    add column quiet_end_minute smallint check (quiet_end_minute between 0 and 1439),
    add constraint users_quiet_hours_pair check ((quiet_start_minute is null) = (quiet_end_minute is null) and (quiet_start_minute is null or quiet_start_minute <> quiet_end_minute))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table users drop constraint users_quiet_hours_pair, drop column quiet_start_minute, drop column quiet_end_minute`.execute(db);
}
