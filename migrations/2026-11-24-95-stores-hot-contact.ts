import { type Kysely, sql } from 'kysely';

// Every gateway post writes stores.last_gateway_contact_at. That column was in the predicate of
// stores_gateway_offline (migration 76), and an UPDATE that changes a column an index uses, even
// in its predicate, cannot be a heap-only (HOT) update: each post wrote a new row version into
// every index of stores (eight) and left them to vacuum. The offline index now reads a generated
// flag, "ever heard from", that changes once in a store's life; the contact time is in no index,
// and a post's update stays on its page (fillfactor 90 leaves the room for it).
// docs/decisions/195-stores-hot-updates.md.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table stores add column gateway_contacted boolean not null generated always as (last_gateway_contact_at is not null) stored;
    drop index stores_gateway_offline;
    create index stores_gateway_offline on stores (store_id) where gateway_down or not gateway_contacted;
    alter table stores set (fillfactor = 90);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table stores reset (fillfactor);
    drop index stores_gateway_offline;
    alter table stores drop column gateway_contacted;
    create index stores_gateway_offline on stores (store_id) where gateway_down or last_gateway_contact_at is null;
  `.execute(db);
}
