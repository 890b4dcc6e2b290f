// Draining a 72-hour outage: 20 sensors x 72 h x 60 min = 86,400 readings in the gateway's SQLite
// buffer, then the daemon as deployed (the bundle with the systemd unit's V8 flags) runs
// `run --source replay:<an empty capture> --exit-when-drained` against the real console (alert
// evaluation on) and uploads them with its default settings (batches of 5,000, gzip).
// Target: >= 2,000 readings/s.
//   npx tsx tests/bench/gateway-drain.ts            (HOURS=72 to change)
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { ReadingBuffer, readBufferStats } from '../../gateway/buffer';
import { silentLogger } from '../../gateway/log';
import { profileFor, simulatedTemperature } from '../../gateway/sources/simulate-source';
import { BUFFER_FILE } from '../../gateway/state';
import { formatMeasuredAt } from '../../gateway/time';
import { createBenchStore, deployedGateway, pairGatewayDataDir, startBenchConsole, startGatewayRun, storedReadings } from '../support/bench';
import { bleAddress } from '../fixtures/chain';
import { machine } from '../support/console';

const HOURS = Number(process.env.HOURS ?? 72);
const SENSORS = 20;
const STORE = 'DRAIN';
const MINUTE = 60_000;

/** The outage, oldest minute first: every sensor's reading of every minute (simulated curves, probe faults as error readings). */
function fillBuffer(buffer: ReadingBuffer, serials: string[], from: number): number {
  let total = 0;
  for (let hour = 0; hour < HOURS; hour += 1) {
    const readings = [];
    for (let m = 0; m < 60; m += 1) {
      const at = from + (hour * 60 + m) * MINUTE;
      for (const serialNo of serials) {
        const temperature = simulatedTemperature(profileFor(serialNo), at);
        const rounded = temperature === null ? null : Math.round(temperature * 10) / 10;
        readings.push({ serialNo, measuredAt: formatMeasuredAt(at), temperature: rounded, error: rounded === null, battery: 90, rssi: -70 });
      }
    }
    total += buffer.insert(readings).inserted;
  }
  return total;
}

async function main() {
  const end = Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE;
  const from = end - HOURS * 60 * MINUTE;
  const bench = await startBenchConsole('onreco_bench_gateway_drain', new Date(from - 86400_000));
  try {
    const serials = Array.from({ length: SENSORS }, (_, i) => bleAddress('D0', i));
    await createBenchStore(bench.db, STORE, serials, () => ({ lower_limit: -30, upper_limit: 60, guard_time: 10 }));
    const dataDir = await pairGatewayDataDir(bench.base, STORE);
    const bufferFile = path.join(dataDir, BUFFER_FILE);
    const buffer = new ReadingBuffer({ file: bufferFile, maxRows: 2_000_000, warnRatio: 0.8, logger: silentLogger() });
    await buffer.start();
    const buffered = fillBuffer(buffer, serials, from);
    await buffer.stop();
    const empty = path.join(dataDir, 'nothing-new.jsonl');
    writeFileSync(empty, '');
    const launch = await deployedGateway();

    const t0 = performance.now();
    const run = startGatewayRun(launch, dataDir, ['--source', `replay:${empty}`, '--exit-when-drained']);
    const { code } = await run.exited;
    const seconds = (performance.now() - t0) / 1000;
    if (code !== 0) throw new Error(`the gateway exited ${code}`);

    const stored = await storedReadings(bench.db, STORE);
    const { rows } = await sql<{ upload_s: number }>`
      select extract(epoch from max(received_at) - min(received_at))::float8 as upload_s from measurements where store_id = ${STORE}`.execute(bench.db);
    const left = readBufferStats(bufferFile, 1)?.depth ?? null;
    console.log(
      JSON.stringify(
        {
          machine: machine(),
          load_average: os.loadavg().map((l) => Math.round(l * 10) / 10),
          gateway: 'bundle (gateway/deploy/build.ts) + the unit V8 flags, default upload settings',
          outage_hours: HOURS,
          sensors: SENSORS,
          readings_buffered: buffered,
          buffer_left: left,
          server_rows: stored.rows,
          server_distinct: stored.distinct,
          all_stored_once: stored.rows === buffered && stored.distinct === buffered && left === 0,
          drain_seconds_process_start_to_exit: Math.round(seconds * 10) / 10,
          readings_per_s: Math.round(buffered / seconds),
          first_to_last_batch_received_s: Math.round(rows[0].upload_s * 10) / 10,
          target_readings_per_s: 2000,
          met: buffered / seconds >= 2000,
        },
        null,
        2,
      ),
    );
    rmSync(dataDir, { recursive: true, force: true });
  } finally {
    await bench.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
