// What keeping the 10-minute buckets costs PostgreSQL per 20-reading post (docs/decisions/283):
// batches of POSTS posts (one store each, 20 sensors, one minute), each post's insert as ingest
// runs it (insertMeasurements), in one transaction per batch, with
//   trigger  a statement trigger (calling the same merge) fired by every post's insert, as before;
//   batch    one upsert of the batch's stored readings after its last post (addToBuckets), as now;
//   none     no buckets at all (the insert's own cost).
// CPU of the one backend (from /proc), modes interleaved round by round so the machine's load hits
// all alike; the load average is printed beside.
//   npx tsx tests/bench/bucket-upkeep.ts      (POSTS=1,8,32 BATCHES=40 ROUNDS=3 to change)
import os from 'node:os';
import { sql } from 'kysely';
import { addToBuckets, mergeIntoBucketsSql } from '../../app/models/measurement-buckets.server';
import { ensureMeasurementPartitions } from '../../app/models/measurement-partitions.server';
import { type NewMeasurement, insertMeasurements } from '../../app/models/measurements.server';
import { runBench } from '../support/bench';
import { cpuSecondsOf } from '../support/process-cpu';
import { SENSORS, seedStores } from './ingest-floor/world';

const POSTS = (process.env.POSTS ?? '1,8,32').split(',').map(Number);
const BATCHES = Number(process.env.BATCHES ?? 40);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const MODES = ['trigger', 'batch', 'none'] as const;
type Mode = (typeof MODES)[number];

runBench('onreco_bench_bucket_upkeep', async ({ db }) => {
  const stores = Math.max(...POSTS);
  const start = Date.now() - 200 * 86400_000;
  await ensureMeasurementPartitions(db, new Date(start), new Date());
  await seedStores(db, stores);
  const sensors = await db.selectFrom('sensors').select(['store_id', 'equipment_id']).orderBy('equipment_id').execute();
  const equipmentIds = new Map<string, number[]>();
  for (const row of sensors) equipmentIds.set(row.store_id, [...(equipmentIds.get(row.store_id) ?? []), row.equipment_id]);
  await sql.raw(`
    create function bench_buckets_add() returns trigger language plpgsql as $$
    begin
      perform merged from (${mergeIntoBucketsSql('new_rows')}) m;
      return null;
    end $$`).execute(db);
  await sql`create trigger bench_buckets_insert after insert on measurements referencing new table as new_rows for each statement execute function bench_buckets_add()`.execute(db);

  let minute = Math.floor(start / 60_000);
  const post = (store: number): NewMeasurement[] =>
    equipmentIds.get(`B${store}`)!.slice(0, SENSORS).map((equipmentId, s) => ({
      equipmentId, measuredAt: new Date(minute * 60_000), temperature: Math.round((4 + Math.sin(minute / 10 + s)) * 10) / 10, error: false, battery: 90, receiveSensitivity: -70,
    }));
  const spent: Record<string, number> = {};
  const loads: string[] = [];
  await db.connection().execute(async (connection) => {
    const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection)).rows[0].pid;
    const run = async (mode: Mode, posts: number) => {
      await sql.raw(`alter table measurements ${mode === 'trigger' ? 'enable' : 'disable'} trigger bench_buckets_insert`).execute(connection);
      const cpu0 = cpuSecondsOf(pid);
      for (let b = 0; b < BATCHES; b += 1) {
        minute += 1;
        await connection.transaction().execute(async (trx) => {
          const stored: { storeId: string; readings: NewMeasurement[] }[] = [];
          for (let p = 0; p < posts; p += 1) {
            const rows = post(p);
            await insertMeasurements(trx, `B${p}`, rows, new Date());
            stored.push({ storeId: `B${p}`, readings: rows });
          }
          if (mode === 'batch') await addToBuckets(trx, stored);
        });
      }
      const key = `${mode} ${posts}`;
      spent[key] = (spent[key] ?? 0) + cpuSecondsOf(pid) - cpu0;
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      loads.push(os.loadavg()[0].toFixed(1));
      for (const posts of POSTS) for (const mode of MODES) await run(mode, posts);
    }
  });
  loads.push(os.loadavg()[0].toFixed(1));
  const perPost = (mode: Mode, posts: number) => Number(((spent[`${mode} ${posts}`] * 1000) / (ROUNDS * BATCHES * posts)).toFixed(3));
  console.log(JSON.stringify({
    load_average_1min_by_round: loads,
    batches_per_mode_and_round: BATCHES,
    rounds: ROUNDS,
    postgresql_backend_cpu_ms_per_20_reading_post: Object.fromEntries(POSTS.map((posts) => [`${posts} posts a batch`, Object.fromEntries(MODES.map((mode) => [mode, perPost(mode, posts)]))])),
  }, null, 2));
}, { pool: 1 });
