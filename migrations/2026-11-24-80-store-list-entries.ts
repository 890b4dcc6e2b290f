import { type Kysely, sql } from 'kysely';

// The dashboard's list as its own narrow table (issue 17, docs/decisions/180-dashboard-paging.md).
// stores is the chain's hottest row set: every gateway post writes last_gateway_contact_at, and
// as that column is in an index predicate (stores_gateway_offline) each write is a new row version
// in every index, clearing the visibility map under the dashboard's index walks. The list's keys
// (number, name, status, place, company, group) change only when the master or a store's status
// changes, so a copy kept by trigger stays settled: a page jump is an index-only walk over small
// entries, a count is one index-only scan, and the name search has a trigram index.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create extension if not exists pg_trgm;
    create table store_list_entries (
      store_id varchar(20) primary key,
      store_no varchar(20) not null,
      store_name varchar(255) not null,
      -- ILIKE on a multibyte database is LIKE on both sides lowered: lowered once here, a search
      -- is a plain LIKE (three times cheaper per row when a short search matches most stores).
      store_name_folded text not null generated always as (lower(store_name)) stored,
      store_status smallint not null,
      in_alarm boolean not null generated always as (store_status = 3) stored,
      prefecture_id smallint not null,
      company_id varchar(10) not null,
      storegroup_id varchar(5) not null
    );
    create function store_list_entries_sync() returns trigger language plpgsql as $$
    begin
      if tg_op = 'TRUNCATE' then
        delete from store_list_entries; -- not truncate: a truncate of both tables at once holds it
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
    end $$;
    -- Only the listed columns wake it: the gateway's writes to stores never touch the entries.
    create trigger stores_list_entries after insert or delete or update of store_id, store_no, store_name, store_status, prefecture_id, company_id, storegroup_id
      on stores for each row execute function store_list_entries_sync();
    create trigger stores_list_entries_truncate after truncate on stores for each statement execute function store_list_entries_sync();
    insert into store_list_entries (store_id, store_no, store_name, store_status, prefecture_id, company_id, storegroup_id)
      select store_id, store_no, store_name, store_status, prefecture_id, company_id, storegroup_id from stores;
    -- The dashboard's order (in alarm first, then by store number), alone and after each
    -- equality filter, so every page of every filter is an ordered index-only walk.
    create index store_list_entries_order on store_list_entries (in_alarm desc, store_no, store_id);
    create index store_list_entries_prefecture on store_list_entries (prefecture_id, in_alarm desc, store_no, store_id);
    create index store_list_entries_company on store_list_entries (company_id, in_alarm desc, store_no, store_id);
    create index store_list_entries_storegroup on store_list_entries (storegroup_id, in_alarm desc, store_no, store_id);
    create index store_list_entries_status on store_list_entries (store_status, store_no, store_id);
    create index store_list_entries_store_no on store_list_entries (store_no varchar_pattern_ops);
    create index store_list_entries_name on store_list_entries using gin (store_name_folded gin_trgm_ops);
    drop index stores_dashboard_order;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create index stores_dashboard_order on stores ((store_status = 3) desc, store_no, store_id);
    drop trigger stores_list_entries on stores;
    drop trigger stores_list_entries_truncate on stores;
    drop function store_list_entries_sync();
    drop table store_list_entries;
  `.execute(db);
}
