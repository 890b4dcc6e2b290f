import { type Kysely, sql } from 'kysely';

// A temporary password from the forgotten-password form sits beside the real one until it
// expires or the user changes their password, so anyone who knows a login id cannot lock
// its owner out by requesting a reset.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table users
      add column temporary_password_hash text,
      add column temporary_password_expires_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table users drop column temporary_password_hash, drop column temporary_password_expires_at`.execute(db);
}
