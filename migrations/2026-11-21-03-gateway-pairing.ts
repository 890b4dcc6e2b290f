import { type Kysely, sql } from 'kysely';

// Failed pairing attempts, so that PIN guessing is throttled across every web process.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table gateway_pair_attempts (
      gateway_info varchar(255) not null,
      attempted_at timestamptz not null default now(),
      client varchar(64)
    );
    create index gateway_pair_attempts_recent on gateway_pair_attempts (gateway_info, attempted_at);
    alter table mail_outbox add column alert_history_id bigint;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table gateway_pair_attempts; alter table mail_outbox drop column alert_history_id`.execute(db);
}
