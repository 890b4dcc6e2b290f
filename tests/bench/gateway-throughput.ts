// Decode + aggregate + buffer throughput of the gateway's recording path.
//   npx tsx tests/bench/gateway-throughput.ts [copies]
// Feeds the capture fixture (20 sensors, 3 h, ~27k advertisements) `copies` times, each copy
// shifted by 3 hours, through the Recorder (store-sensor lookup, real decoders with AES-CCM for the
// encrypted sensors, counter guard, interval aggregation) into a real SQLite buffer (WAL,
// synchronous=FULL, one transaction per closed interval). Target: >= 10,000 advertisements/s.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ReadingBuffer } from '../../gateway/buffer';
import { decodeAdvertisement } from '../../gateway/decoders/index';
import { silentLogger } from '../../gateway/log';
import { Recorder } from '../../gateway/recorder';
import { parseCaptureLine } from '../../gateway/sources/capture';
import type { HeardAdvertisement } from '../../gateway/sources/types';
import { parseStoreConfig } from '../../gateway/state';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/gateway');
const copies = Number(process.argv[2] ?? 10);
const lines = gunzipSync(readFileSync(path.join(fixtures, 'store-capture.jsonl.gz'))).toString('utf8').trim().split('\n');
const { config } = parseStoreConfig(JSON.parse(readFileSync(path.join(fixtures, 'store-config.json'), 'utf8')));

const parseStart = performance.now();
const base = lines.map(parseCaptureLine);
const parseMs = performance.now() - parseStart;
const SHIFT = 3 * 3600_000;
const runs: HeardAdvertisement[][] = Array.from({ length: copies }, (_, c) => base.map((h) => ({ ts: h.ts + c * SHIFT, adv: h.adv })));
const ads = runs.flat();

// 1. Decoding alone (store sensors with their keys), for reference.
const keys = new Map(config.sensors.map((s) => [s.serialNo, s.key]));
let decoded = 0;
const decodeStart = performance.now();
for (const { adv } of ads) {
  const key = keys.get(adv.address);
  if (key !== undefined && decodeAdvertisement(adv, key ? { key } : {})) decoded += 1;
}
const decodeMs = performance.now() - decodeStart;

// 2. The whole recording path into the SQLite buffer.
const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-bench-'));
const buffer = new ReadingBuffer({ file: path.join(dir, 'buffer.sqlite'), maxRows: 2_000_000, warnRatio: 0.8, logger: silentLogger() });
await buffer.start();
// One recorder per copy, as after a restart: the encrypted sensors' counters start over with each
// copy, and one process's counter guard would rightly refuse them as replays.
const recordStart = performance.now();
for (const run of runs) {
  const recorder = new Recorder({ buffer, logger: silentLogger(), clock: () => 0, live: false, closeGraceMs: 0 });
  recorder.setConfig(config);
  await recorder.start();
  for (const heard of run) recorder.handle(heard);
  await recorder.stop();
}
const recordMs = performance.now() - recordStart;
const rows = buffer.depth;
await buffer.stop();
rmSync(dir, { recursive: true, force: true });

const rate = (n: number, ms: number) => Math.round((n / ms) * 1000).toLocaleString('en-US');
console.log(`machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`advertisements: ${ads.length.toLocaleString('en-US')} (${copies} x ${base.length} from the capture fixture: 20 store sensors + neighbours)`);
console.log(`capture parsing (JSON + hex, not in the path below): ${rate(base.length, parseMs)} lines/s`);
console.log(`decode only (store sensors, AES-CCM where encrypted): ${rate(ads.length, decodeMs)} advertisements/s (${decoded.toLocaleString('en-US')} decoded)`);
console.log(`decode + guard + aggregate + SQLite buffer (WAL, synchronous=FULL): ${rate(ads.length, recordMs)} advertisements/s`);
console.log(`  ${rows.toLocaleString('en-US')} readings buffered in ${Math.round(recordMs)} ms; target >= 10,000 advertisements/s: ${(ads.length / recordMs) * 1000 >= 10_000 ? 'met' : 'NOT met'}`);
