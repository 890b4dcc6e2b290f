import { type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations';
import { testDb } from '../support/db';

// A chain already on Citus takes the next release's migrations like any other database: each step
// one statement (Citus refuses several commands in one prepared statement), DDL on a distributed
// table reaching every shard.
const nextRelease = {
  async up(db: Kysely<any>) {
    await sql`alter table sensors add column citus_probe smallint not null default 0`.execute(db);
    await sql`create index sensors_citus_probe on sensors (store_id, citus_probe)`.execute(db);
    await sql`create table citus_probe_notes (store_id varchar(20) not null, note text not null, primary key (store_id, note))`.execute(db);
    await sql`select create_distributed_table('citus_probe_notes', 'store_id', colocate_with => 'sensors')`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop table citus_probe_notes`.execute(db);
    await sql`alter table sensors drop column citus_probe`.execute(db);
  },
};

describe('a migration added after distribution', () => {
  const db = testDb();
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...migrations, '2099-01-01-00-citus-probe': nextRelease }) },
    allowUnorderedMigrations: true,
  });

  afterAll(async () => {
    await migrator.migrateDown();
  });

  it('runs on the coordinator and reaches every shard of the table it changes', async () => {
    const { error, results } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    expect(results?.map((result) => [result.migrationName, result.status])).toEqual([['2099-01-01-00-citus-probe', 'Success']]);
    const { rows } = await sql<{ shards: number; with_column: number }>`
      select count(*)::int as shards,
        count(*) filter (where result = 't')::int as with_column
      from run_command_on_shards('sensors', $$select count(*) > 0 from information_schema.columns where table_name = '%s' and column_name = 'citus_probe'$$)`.execute(db);
    expect(rows[0].shards).toBeGreaterThan(1);
    expect(rows[0].with_column).toBe(rows[0].shards);
    const { rows: placed } = await sql<{ type: string }>`select citus_table_type as type from citus_tables where table_name = 'citus_probe_notes'::regclass`.execute(db);
    expect(placed).toEqual([{ type: 'distributed' }]);
  });
});
