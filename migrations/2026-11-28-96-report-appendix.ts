import { type Kysely, sql } from 'kysely';

// Whether a regular report's PDF carries the raw values as an appendix (付録) after the summary
// and the charts (issue 29, decision 307). 1 for every setting saved before: they had it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table regular_reports add column appendix smallint not null default 1`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table regular_reports drop column appendix`.execute(db);
}
