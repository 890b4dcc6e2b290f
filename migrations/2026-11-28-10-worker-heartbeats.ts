import { type Kysely, sql } from 'kysely';

// Each worker process's heartbeat (docs/decisions/211-health-and-readiness.md): the worker writes
// its row when it starts and every few seconds after; /readyz fails when a lane's newest beat is
// stale, and /metrics counts the starts (a restart is a new process, a new row). A worker that
// stops cleanly keeps its row (its start still counts); rows of a day ago are removed.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table worker_heartbeats (
      worker text primary key,
      lane text not null,
      started_at timestamptz not null,
      beat_at timestamptz not null,
      stopped_at timestamptz
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table worker_heartbeats`.execute(db);
}
