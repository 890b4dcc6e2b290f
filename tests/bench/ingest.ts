// Sustained ingest over HTTP: concurrent simulated gateways post gzip batches of 500 readings
// (alert evaluation on) to the real console; beside it, the rate of a raw COPY into the same
// table in the same run.
// CPU seconds of the web process and of PostgreSQL per 1,000 readings say where the work is on a
// loaded machine; PROFILE=dir writes the web process's V8 CPU profile there (open it in Chrome's
// DevTools).
//   npx tsx tests/bench/ingest.ts            (STORES=40 GATEWAYS=8 DURATION=20 to change)
import { writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { gzipSync } from 'node:zlib';
import { createDb } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { ensureMeasurementPartitions } from '../../app/models/measurement-partitions.server';
import { SENSORS, batch, seedStores } from './ingest-floor/world';
import { prepareTestDatabase } from '../support/database';
import { pairOverApi } from '../support/gateway-api';
import { machine, serveConsole } from '../support/console';
import { cpuSecondsOf, parentOf, trackProcessTreeCpu } from '../support/process-cpu';

const STORES = Number(process.env.STORES ?? 40);
const GATEWAYS = Number(process.env.GATEWAYS ?? 8);
const SECONDS = Number(process.env.DURATION ?? 20);
// 25 minutes × 20 sensors = 500 readings; BATCH_MINUTES=1 posts what a store sends a minute (20).
const BATCH_MINUTES = Number(process.env.BATCH_MINUTES ?? 25);

async function main() {
  const database = await prepareTestDatabase('onreco_bench_ingest');
  const db = createDb(database.url, 4);
  await migrateToLatest(db);
  const start = new Date(Date.now() - 200 * 86400_000);
  await ensureMeasurementPartitions(db, start, new Date());
  await seedStores(db, STORES);
  const profile = process.env.PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE}`] : [];
  const server = await serveConsole(database.url, {}, undefined, profile);
  try {
    const tokens = await Promise.all(Array.from({ length: STORES }, (_, i) => pairOverApi(server.base, `B${i}`, '123456')));
    // Each gateway replays history forward from `start`, minute by minute, as after an outage.
    let next = 0;
    const cursors = tokens.map(() => start.getTime());
    let readings = 0;
    const deadline = performance.now() + SECONDS * 1000;
    const postgres = trackProcessTreeCpu(await postmasterPid(db));
    const web0 = cpuSecondsOf(server.process.pid!);
    const bench0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: GATEWAYS }, async () => {
        while (performance.now() < deadline) {
          const store = next++ % STORES;
          const body = batch(store, cursors[store], BATCH_MINUTES);
          cursors[store] += BATCH_MINUTES * 60_000;
          const response = await fetch(`${server.base}/on-reco/v1/gateway/readings`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${tokens[store]}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
            body: gzipSync(JSON.stringify(body)),
          });
          if (response.status === 429) continue;
          const result = (await response.json()) as { accepted: number };
          if (!response.ok) throw new Error(JSON.stringify(result));
          readings += result.accepted;
        }
      }),
    );
    const httpRate = readings / ((performance.now() - t0) / 1000);
    const perThousand = (seconds: number) => Number(((seconds * 1000) / readings).toFixed(3));
    const cpu = {
      web_process: perThousand(cpuSecondsOf(server.process.pid!) - web0),
      postgresql: perThousand(postgres.stop()),
      bench_client: perThousand(cpuTotal(process.cpuUsage(bench0))),
    };
    const copyPostgres = trackProcessTreeCpu(await postmasterPid(db));
    const copyRate = await rawCopyRate(db);
    const copyCpu = (copyPostgres.stop() * 1000) / COPY_ROWS;
    const alerts = await db.selectFrom('alert_history').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    // Every post updates its store's row: heap-only (HOT) unless an indexed column changed (decision 195).
    // Read after the COPY, so the server's backends have reported their counts (once a second).
    const stores = await sql<{ updates: number; hot: number }>`select n_tup_upd::int as updates, n_tup_hot_upd::int as hot from pg_stat_user_tables where relname = 'stores'`.execute(db);
    console.log(JSON.stringify({ machine: machine(), stores: STORES, sensors_per_store: SENSORS, concurrent_gateways: GATEWAYS, batch: SENSORS * BATCH_MINUTES, seconds: SECONDS,
      readings_accepted: readings, http_ingest_readings_per_s: Math.round(httpRate), raw_copy_rows_per_s: Math.round(copyRate),
      http_to_copy: Number((httpRate / copyRate).toFixed(3)), cpu_seconds_per_1000_readings: cpu, copy_postgresql_cpu_seconds_per_1000_rows: Number(copyCpu.toFixed(4)),
      // On a loaded machine wall time is shared: the work per reading of the web process and PostgreSQL against the COPY's.
      cpu_copy_to_http: Number((copyCpu / (cpu.web_process + cpu.postgresql)).toFixed(3)),
      alerts_opened: alerts.n,
      stores_row_updates: stores.rows[0].updates, stores_row_updates_heap_only: Number((stores.rows[0].hot / Math.max(1, stores.rows[0].updates)).toFixed(3)) }, null, 2));
  } finally {
    await server.stop();
    await db.destroy();
    await database.release();
  }
}

const cpuTotal = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;

/** The PostgreSQL server process, parent of this connection's backend. */
async function postmasterPid(db: ReturnType<typeof createDb>): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
  return parentOf(rows[0].pid);
}

/** Rows per second of a server-side COPY of the same shape of rows into measurements. */
const COPY_ROWS = 500_000;

async function rawCopyRate(db: ReturnType<typeof createDb>): Promise<number> {
  const rows = COPY_ROWS;
  const file = `/tmp/onreco-copy-${process.pid}.csv`;
  const lines: string[] = [];
  const base = Date.now() - 400 * 86400_000;
  await ensureMeasurementPartitions(db, new Date(base), new Date(base + rows * 60_000 / 20));
  for (let i = 0; i < rows; i += 1) {
    lines.push(`COPY,${i % 20},${new Date(base + Math.floor(i / 20) * 60_000).toISOString()},4.2,false,90,-70`);
  }
  writeFileSync(file, lines.join('\n'), { mode: 0o644 });
  const t0 = performance.now();
  await sql`copy measurements (store_id, equipment_id, measured_at, temperature, error, battery, receive_sensitivity) from ${sql.lit(file)} with (format csv)`.execute(db);
  return rows / ((performance.now() - t0) / 1000);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
