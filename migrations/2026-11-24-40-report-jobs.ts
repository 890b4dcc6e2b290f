import { type Kysely, sql } from 'kysely';

// Reports as durable jobs (docs/decisions/140-report-jobs.md): a history row is the job. It is
// written 'pending' (作成中) with what to make (request), the worker claims it FOR UPDATE SKIP
// LOCKED and, in that same transaction, stores the file and turns it 'done' (or 'failed' after
// attempts), so a killed worker leaves it pending and another run makes it exactly once.
// A regular setting's period is produced once: (store_id, setting_no, start_time) is unique.
// Mails may carry a produced report as their attachment by reference.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table report_history
      add column state varchar(10) not null default 'done' check (state in ('pending', 'done', 'failed')),
      add column request jsonb,
      add column attempts smallint not null default 0,
      add column last_error text,
      add column finished_at timestamptz;
    create unique index report_history_regular_period on report_history (store_id, setting_no, start_time) where setting_no is not null;
    create index report_history_pending on report_history (history_no) where state = 'pending';
    alter table mail_outbox
      add column attachment_store_id varchar(20),
      add column attachment_history_no integer;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table mail_outbox drop column attachment_store_id, drop column attachment_history_no;
    drop index report_history_pending;
    drop index report_history_regular_period;
    alter table report_history drop column state, drop column request, drop column attempts, drop column last_error, drop column finished_at;
  `.execute(db);
}
