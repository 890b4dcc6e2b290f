import { type Kysely, sql } from 'kysely';

// The audit trail becomes a hash chain (issue 13 item 6, docs/decisions/130-audit-hash-chain.md):
// each row carries prev_hash (the previous row's row_hash, 64 zeros for the first) and row_hash,
// the SHA-256 of a canonical text of its stored content and prev_hash, computed in SQL so that a
// verifier recomputes it from the stored row alone (details becomes json, printed as stored; the
// time is microseconds since the epoch, whatever the session's TimeZone). Appends go through
// audit_append(), which locks the one-row chain head, so two transactions never fork the chain;
// the head keeps the last row, so deleting rows at the end is seen too.
// user_id stops being a foreign key (deleting a user would rewrite their rows and break the
// chain); user_name keeps the name the row was written under.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table audit_log drop constraint if exists audit_log_user_id_fkey;
    alter table audit_log add column user_name varchar(50), add column prev_hash text, add column row_hash text;
    -- json keeps the text it was given and prints it as is: the hash covers that text, and a
    -- verifier reads it back without re-serialising a jsonb value (decision 132).
    alter table audit_log alter column details drop default, alter column details type json using details::json, alter column details set default '{}';
    update audit_log a set user_name = u.user_name from users u where u.user_id = a.user_id;

    create table audit_chain_head (
      chain smallint primary key check (chain = 1),
      last_id bigint not null,
      last_hash text not null
    );

    -- The canonical text: the numbers as they print, the time as microseconds since the epoch (no
    -- time zone, no DateStyle), each text quoted (quote_nullable: NULL or '…' with quotes doubled),
    -- and the details last, as stored (json keeps its text). Unambiguous, and cheap
    -- enough to recompute a million rows in seconds (decision 132).
    create function audit_row_hash(
      audit_id bigint, at timestamptz, user_id integer, user_name text, action text, target_type text,
      target_id text, store_id text, details json, prev_hash text
    ) returns text language sql stable parallel safe as $fn$
      select encode(sha256(textsend(concat_ws(',',
        audit_id, (extract(epoch from at) * 1000000)::bigint, coalesce(user_id::text, 'NULL'), quote_nullable(user_name),
        quote_nullable(action), quote_nullable(target_type), quote_nullable(target_id), quote_nullable(store_id),
        quote_nullable(prev_hash), details::text
      ))), 'hex')
    $fn$;

    create function audit_append(entries jsonb) returns void language plpgsql as $fn$
    declare
      head_hash text;
      head_id bigint;
      entry jsonb;
      next_id bigint;
      next_hash text;
      writer_name text;
    begin
      insert into audit_chain_head (chain, last_id, last_hash) values (1, 0, repeat('0', 64))
        on conflict (chain) do update set chain = excluded.chain
        returning last_id, last_hash into head_id, head_hash;
      for entry in select value from jsonb_array_elements(entries) loop
        next_id := nextval(pg_get_serial_sequence('audit_log', 'audit_id'));
        select u.user_name into writer_name from users u where u.user_id = (entry->>'user_id')::integer;
        next_hash := audit_row_hash(
          next_id, (entry->>'at')::timestamptz, (entry->>'user_id')::integer, writer_name, entry->>'action',
          entry->>'target_type', entry->>'target_id', entry->>'store_id', (entry->'details')::json, head_hash
        );
        insert into audit_log (audit_id, at, user_id, user_name, action, target_type, target_id, store_id, details, prev_hash, row_hash)
          overriding system value
          values (next_id, (entry->>'at')::timestamptz, (entry->>'user_id')::integer, writer_name, entry->>'action',
            entry->>'target_type', entry->>'target_id', entry->>'store_id', (entry->'details')::json, head_hash, next_hash);
        head_id := next_id;
        head_hash := next_hash;
      end loop;
      update audit_chain_head set last_id = head_id, last_hash = head_hash where chain = 1;
    end
    $fn$;

    do $chain$
    declare
      r record;
      h text := repeat('0', 64);
      last bigint := 0;
    begin
      for r in select * from audit_log order by audit_id loop
        update audit_log set prev_hash = h,
          row_hash = audit_row_hash(r.audit_id, r.at, r.user_id, r.user_name, r.action, r.target_type, r.target_id, r.store_id, r.details, h)
          where audit_id = r.audit_id returning row_hash into h;
        last := r.audit_id;
      end loop;
      if last > 0 then insert into audit_chain_head (chain, last_id, last_hash) values (1, last, h); end if;
    end
    $chain$;

    create index audit_log_store on audit_log (store_id, audit_id) where store_id is not null;
    create index audit_log_user on audit_log (user_id, audit_id) where user_id is not null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index audit_log_user;
    drop index audit_log_store;
    drop function audit_append(jsonb);
    drop function audit_row_hash(bigint, timestamptz, integer, text, text, text, text, text, json, text);
    drop table audit_chain_head;
    alter table audit_log drop column row_hash, drop column prev_hash, drop column user_name;
    alter table audit_log alter column details drop default, alter column details type jsonb using details::jsonb, alter column details set default '{}';
    update audit_log a set user_id = null where user_id is not null and not exists (select 1 from users u where u.user_id = a.user_id);
    alter table audit_log add constraint audit_log_user_id_fkey foreign key (user_id) references users on delete set null;
  `.execute(db);
}
