import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { distribute } from '~/db/distribute.server';
import { tablesPlaced } from '~/db/distribution';
import { testDb } from '../support/db';

// The step global-citus.ts ran before this file, checked on the cluster it made.
describe('the distribute step on a cluster', () => {
  const db = testDb();

  it('made every table what app/db/distribution.ts declares, and a second run changes nothing', async () => {
    const { rows } = await sql<{ name: string; type: string }>`select table_name::text as name, citus_table_type as type from citus_tables`.execute(db);
    const typeOf = new Map(rows.map((row) => [row.name, row.type]));
    for (const table of tablesPlaced('distributed')) expect(typeOf.get(table), table).toBe('distributed');
    for (const table of tablesPlaced('reference')) expect(typeOf.get(table), table).toBe('reference');
    const { rows: keysBefore } = await sql<{ name: string }>`select conname as name from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace order by 1`.execute(db);
    const again = await distribute(db);
    expect(again).toMatchObject({ kind: 'done', ran: [] });
    const { rows: keysAfter } = await sql<{ name: string }>`select conname as name from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace order by 1`.execute(db);
    expect(keysAfter).toEqual(keysBefore);
  });

  it('left the counters where they were: a new row after distribution does not reuse an id', async () => {
    const before = await sql<{ last: number }>`select coalesce(max(notice_id), 0)::int as last from notices`.execute(db);
    const { rows } = await sql<{ id: number }>`insert into notices (title, content, created_at) values ('citus', 'counter', now()) returning notice_id as id`.execute(db);
    expect(rows[0].id).toBeGreaterThan(before.rows[0].last);
    await sql`delete from notices where notice_id = ${rows[0].id}`.execute(db);
  });
});
