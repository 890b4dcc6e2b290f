// kill -9 of the gateway's `run`, 200 times, while it records and uploads to the real console.
// The daemon replays a generated capture (20 sensors, BTHome frames, 3 advertisements a minute:
// a measurement and its repeats) one segment of an hour at a time, like a gateway catching up,
// with --exit-when-drained and small batches (250) so that uploads are in flight when it dies.
// Each run is killed at a random moment after it started recording (0 to the time an
// uninterrupted segment takes from there to its exit), then started again; a run that gets
// through moves on to the next segment. At the end the console's table must hold every generated
// reading once, with its value.
// The daemon runs as deployed (the bundle of gateway/deploy/build.ts with the unit's V8 flags):
// through tsx each start-up costs up to a second more, times the ~475 starts of a run.
//   npx tsx tests/bench/gateway-kills.ts            (KILLS=200 to change)
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readBufferStats } from '../../gateway/buffer';
import { formatCaptureLine } from '../../gateway/sources/capture';
import { BTHOME_UUID, encodeBthome } from '../../gateway/sources/frames';
import { profileFor, simulatedTemperature } from '../../gateway/sources/simulate-source';
import { BUFFER_FILE, STATUS_FILE } from '../../gateway/state';
import { formatMeasuredAt } from '../../gateway/time';
import { createBenchStore, deployedGateway, pairGatewayDataDir, startBenchConsole, startGatewayRun, storedReadings, type BenchConsole } from '../support/bench';
import { bleAddress } from '../fixtures/chain';
import { machine } from '../support/console';

const KILLS = Number(process.env.KILLS ?? 200);
const SENSORS = 20;
const SEGMENT_MINUTES = 60;
const ADS_PER_MINUTE = 3;
const STORE = 'KILLS';
const MINUTE = 60_000;
const RUN_ARGS = ['--exit-when-drained', '--upload-batch-size', '250', '--upload-delay-ms', '0', '--retry-base-ms', '20', '--retry-max-ms', '200', '--status-interval-seconds', '1'];

const serials = Array.from({ length: SENSORS }, (_, i) => bleAddress('E0', i));
const key = (serial: string, at: number) => `${serial}|${at}`;

interface Segment {
  file: string;
  lastMinute: number;
}

/** Writes segment `index` of the capture and adds its readings (serial|minute -> °C or null for a probe fault) to `expected`. */
function writeSegment(dir: string, index: number, start: number, expected: Map<string, number | null>): Segment {
  const from = start + index * SEGMENT_MINUTES * MINUTE;
  const lines: string[] = [];
  for (let m = 0; m < SEGMENT_MINUTES; m += 1) {
    const minute = from + m * MINUTE;
    const frames = serials.map((serial) => {
      const raw = simulatedTemperature(profileFor(serial), minute);
      const temperature = raw === null ? null : Math.round(raw * 10) / 10;
      expected.set(key(serial, minute), temperature);
      return encodeBthome({ packetId: index * SEGMENT_MINUTES + m, battery: 90, temperature });
    });
    for (let repeat = 0; repeat < ADS_PER_MINUTE; repeat += 1) {
      serials.forEach((address, s) => {
        const ts = minute + (repeat * MINUTE) / ADS_PER_MINUTE + s * 500;
        lines.push(formatCaptureLine({ ts, adv: { address, rssi: -65, manufacturerData: {}, serviceData: { [BTHOME_UUID]: frames[s] } } }));
      });
    }
  }
  const file = path.join(dir, `segment-${index}.jsonl`);
  writeFileSync(file, lines.join('\n') + '\n');
  return { file, lastMinute: from + (SEGMENT_MINUTES - 1) * MINUTE };
}

const modifiedAt = (file: string) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

/**
 * Runs the daemon on a segment. With `killWithinMs`, kills it (SIGKILL) at a random moment up to
 * that long after it started recording (its first status write), unless it finished first.
 * Resolves whether it was killed and how long it ran after it started recording; throws when it
 * failed on its own.
 */
async function runSegment(launch: string[], dataDir: string, segment: Segment, killWithinMs: number | null): Promise<{ killed: boolean; recordingToExitMs: number }> {
  const statusFile = path.join(dataDir, STATUS_FILE);
  const since = Date.now();
  let recordingSince = Number.NaN;
  const run = startGatewayRun(launch, dataDir, ['--source', `replay:${segment.file}`, ...RUN_ARGS]);
  let timer: NodeJS.Timeout | undefined;
  const poll = setInterval(() => {
    if (modifiedAt(statusFile) < since) return;
    clearInterval(poll);
    recordingSince = Date.now();
    if (killWithinMs !== null) timer = setTimeout(() => run.child.kill('SIGKILL'), Math.random() * killWithinMs);
  }, 5);
  const { code, signal } = await run.exited;
  clearInterval(poll);
  clearTimeout(timer);
  if (signal !== 'SIGKILL' && code !== 0) throw new Error(`the gateway exited ${code ?? signal}`);
  return { killed: signal === 'SIGKILL', recordingToExitMs: Date.now() - recordingSince };
}

/** What the killed daemon was doing: recording the segment (uploads run alongside), uploading it, or done but not yet exited. */
async function phaseAtKill(bench: BenchConsole, bufferFile: string, segment: Segment): Promise<'recording' | 'uploading' | 'drained'> {
  const stats = readBufferStats(bufferFile, 1);
  const last = formatMeasuredAt(segment.lastMinute);
  const onServer = await bench.db.selectFrom('measurements').select('equipment_id').where('store_id', '=', STORE).where('measured_at', '=', new Date(segment.lastMinute)).executeTakeFirst();
  if (stats?.newest !== last && !onServer) return 'recording';
  return (stats?.depth ?? 0) > 0 ? 'uploading' : 'drained';
}

async function main() {
  // Room for four times as many segments as kills (a little over half the runs get through).
  const start = Math.floor(Date.now() / 3600_000) * 3600_000 - 4 * KILLS * SEGMENT_MINUTES * MINUTE;
  const bench = await startBenchConsole('onreco_bench_gateway_kills', new Date(start - 86400_000));
  const captures = mkdtempSync(path.join(os.tmpdir(), 'onreco-bench-kills-'));
  try {
    const ids = await createBenchStore(bench.db, STORE, serials, () => ({ lower_limit: -30, upper_limit: 60, guard_time: 10 }));
    const dataDir = await pairGatewayDataDir(bench.base, STORE);
    const bufferFile = path.join(dataDir, BUFFER_FILE);
    const launch = await deployedGateway();
    const expected = new Map<string, number | null>();
    const t0 = performance.now();

    // Segment 0, uninterrupted, gives the time a segment takes once recording started.
    let index = 0;
    let segment = writeSegment(captures, index, start, expected);
    const segmentMs = (await runSegment(launch, dataDir, segment, null)).recordingToExitMs;
    const phases = { recording: 0, uploading: 0, drained: 0 };
    let kills = 0;
    let runs = 1;
    segment = writeSegment(captures, ++index, start, expected);
    while (kills < KILLS) {
      if (segment.lastMinute > Date.now() - MINUTE) throw new Error('out of segments: the kills come too late');
      runs += 1;
      if ((await runSegment(launch, dataDir, segment, segmentMs)).killed) {
        kills += 1;
        phases[await phaseAtKill(bench, bufferFile, segment)] += 1;
        if (kills % 25 === 0) console.error(`${kills} kills, ${runs} runs, ${index + 1} segments`);
      } else {
        segment = writeSegment(captures, ++index, start, expected);
      }
    }
    runs += 1;
    await runSegment(launch, dataDir, segment, null);
    const seconds = (performance.now() - t0) / 1000;

    const serialOf = new Map(ids.map((id, i) => [id, serials[i]]));
    const rows = await bench.db.selectFrom('measurements').select(['equipment_id', 'measured_at', 'temperature', 'error']).where('store_id', '=', STORE).execute();
    const found = new Set<string>();
    let unexpected = 0;
    let wrongValue = 0;
    for (const row of rows) {
      const k = key(serialOf.get(row.equipment_id)!, row.measured_at.getTime());
      found.add(k);
      if (!expected.has(k)) unexpected += 1;
      else if (expected.get(k) !== row.temperature || row.error !== (row.temperature === null)) wrongValue += 1;
    }
    const lost = [...expected.keys()].filter((k) => !found.has(k)).length;
    const stored = await storedReadings(bench.db, STORE);
    console.log(
      JSON.stringify(
        {
          machine: machine(),
          load_average: os.loadavg().map((l) => Math.round(l * 10) / 10),
          gateway: 'bundle (gateway/deploy/build.ts) + the unit V8 flags',
          kills,
          kills_while: phases,
          runs,
          segments: index + 1,
          segment: `${SEGMENT_MINUTES} min x ${SENSORS} sensors, ${ADS_PER_MINUTE} advertisements a minute; uploads of 250`,
          uninterrupted_segment_recording_to_exit_ms: segmentMs,
          readings_expected: expected.size,
          readings_stored: stored.rows,
          lost,
          duplicates: stored.rows - stored.distinct,
          unexpected,
          wrong_values: wrongValue,
          buffer_left: readBufferStats(bufferFile, 1)?.depth ?? null,
          seconds: Math.round(seconds),
          ok: lost === 0 && stored.rows === stored.distinct && unexpected === 0 && wrongValue === 0,
        },
        null,
        2,
      ),
    );
    rmSync(dataDir, { recursive: true, force: true });
  } finally {
    rmSync(captures, { recursive: true, force: true });
    await bench.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
