import { type Kysely, sql } from 'kysely';

// The periodic jobs' ticks (docs/decisions/184-several-processes.md): a worker runs a job's
// scheduled moment only when it writes the (job, tick) row first, so with several workers each
// tick is run once. finished_at stays null when the run died (its worker was killed); such a tick
// may be taken again by a worker that comes to it later (the catch-up run of a worker starting).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table job_runs (
      job text not null,
      tick timestamptz not null,
      worker text not null,
      started_at timestamptz not null default now(),
      finished_at timestamptz,
      primary key (job, tick)
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table job_runs`.execute(db);
}
