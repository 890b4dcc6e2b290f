import { type Kysely, sql } from 'kysely';

// The dashboard's entries (decision 180) are kept by the stores model instead of a trigger on
// stores: Citus distributes no table with a trigger, and a reference table's trigger runs on its
// shards, where it cannot write another reference table (decision 225). A removed store's entry
// goes with it by a foreign key. One statement per step.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger stores_list_entries on stores`.execute(db);
  await sql`drop trigger stores_list_entries_truncate on stores`.execute(db);
  await sql`drop function store_list_entries_sync()`.execute(db);
  await sql`delete from store_list_entries e where not exists (select from stores s where s.store_id = e.store_id)`.execute(db);
  await sql`
    alter table store_list_entries add constraint store_list_entries_store_id_fkey
      foreign key (store_id) references stores (store_id) on delete cascade`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table store_list_entries drop constraint store_list_entries_store_id_fkey`.execute(db);
  await sql`
    create function store_list_entries_sync() returns trigger language plpgsql as $$
    begin
      if tg_op = 'TRUNCATE' then
        delete from store_list_entries;
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') and (tg_op = 'DELETE' or old.store_id <> new.store_id) then
        delete from store_list_entries where store_id = old.store_id;
      end if;
      if tg_op = 'DELETE' then return null; end if;
      insert into store_list_entries (store_id, store_no, store_name, store_status, prefecture_id, company_id, storegroup_id)
        values (new.store_id, new.store_no, new.store_name, new.store_status, new.prefecture_id, new.company_id, new.storegroup_id)
        on conflict (store_id) do update set store_no = excluded.store_no, store_name = excluded.store_name, store_status = excluded.store_status,
          prefecture_id = excluded.prefecture_id, company_id = excluded.company_id, storegroup_id = excluded.storegroup_id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger stores_list_entries after insert or delete or update of store_id, store_no, store_name, store_status, prefecture_id, company_id, storegroup_id
      on stores for each row execute function store_list_entries_sync()`.execute(db);
  await sql`create trigger stores_list_entries_truncate after truncate on stores for each statement execute function store_list_entries_sync()`.execute(db);
}
