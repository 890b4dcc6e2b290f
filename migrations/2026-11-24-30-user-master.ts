import { type Kysely, sql } from 'kysely';

// The user master (issue 13): a deleted user stays as a tombstone (deleted_at set, sign-in,
// groups, mail addresses and login id released) so the history they wrote keeps their name;
// trigram indexes for the list's name and mail searches (pg_trgm is a trusted contrib extension).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create extension if not exists pg_trgm;
    alter table users add column deleted_at timestamptz;
    create index users_name_trgm on users using gin (user_name gin_trgm_ops) where deleted_at is null;
    create index users_mail_trgm on users using gin (
      (lower(coalesce(mailaddress1, '') || ' ' || coalesce(mailaddress2, '') || ' ' || coalesce(mailaddress3, ''))) gin_trgm_ops
    ) where deleted_at is null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index if exists users_mail_trgm;
    drop index if exists users_name_trgm;
    alter table users drop column deleted_at;
  `.execute(db);
}
