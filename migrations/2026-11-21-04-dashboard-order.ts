import { type Kysely, sql } from 'kysely';

// The dashboard's order (stores in alarm first, then by store number) as an index, so a deep
// page of a large chain is an index walk rather than a sort of every store.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index stores_dashboard_order on stores ((store_status = 3) desc, store_no, store_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index stores_dashboard_order`.execute(db);
}
