import { type Kysely, sql } from 'kysely';

// The user master's list (task p2, docs/decisions/124-user-list-figures.md): the live users' ids in
// order, so the exact all_count and the page's ids (order by user_id offset n) can be read from the
// index alone (index-only scans once vacuum has set the visibility map), not from the heap.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index users_live_id on users (user_id) where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists users_live_id`.execute(db);
}
