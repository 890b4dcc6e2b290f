import { type Kysely, sql } from 'kysely';

// The audit chain's verified checkpoint (task p2, docs/decisions/132-audit-figures.md): the worker
// walks the chain (in full nightly or on demand, the rows after the checkpoint every few minutes)
// and keeps here how far it got, the hash it saw there, what it found broken, and the table's
// update/delete counters at that time. A request then walks only the rows after last_id.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table audit_checkpoint (
      chain smallint primary key,
      last_id bigint not null,
      last_hash text not null,
      checked bigint not null,
      broken jsonb not null default '[]',
      changes bigint not null,
      walked_at timestamptz not null,
      full_walk_at timestamptz not null
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table audit_checkpoint`.execute(db);
}
