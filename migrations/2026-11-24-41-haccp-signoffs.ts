import { type Kysely, sql } from 'kysely';

// The HACCP daily record's sign-offs (issue 14 item 6, docs/decisions/146-haccp-daily-record.md):
// who confirmed a store's day and when. A day may be signed again when alerts or excursions
// appeared after its last sign-off, so the rows are a history; the latest one is the day's.
// issue_count is what the signer saw (alerts and excursions), which tells a later one apart.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table haccp_signoffs (
      store_id varchar(20) not null references stores on delete cascade,
      signoff_id integer generated always as identity,
      day date not null,
      user_id integer references users on delete set null,
      user_name varchar(255) not null,
      signed_at timestamptz not null,
      note varchar(200),
      issue_count integer not null default 0,
      primary key (store_id, signoff_id)
    );
    create index haccp_signoffs_day on haccp_signoffs (store_id, day, signed_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table haccp_signoffs`.execute(db);
}
