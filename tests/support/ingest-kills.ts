import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Reading } from '../../gateway/aggregator';
import { ReadingBuffer } from '../../gateway/buffer';
import { Credentials } from '../../gateway/credentials';
import { silentLogger } from '../../gateway/log';
import { BUFFER_FILE, DataDir } from '../../gateway/state';
import { formatMeasuredAt } from '../../gateway/time';
import { Uploader } from '../../gateway/uploader';
import type { Db } from '../../app/db/db.server';
import { parseCompact } from '../../app/domain/japan-time';
import { ensureMeasurementPartitions } from '../../app/models/measurement-partitions.server';
import { bleAddress } from '../fixtures/chain';
import { createBenchStore, pairGatewayDataDir } from './bench';
import { serveConsole } from './console';
import { freePort } from './ports';

// kill -9 of the web process while simulated gateways upload to it (issue 17 part 7), shared by
// tests/bench/ingest-kills.ts (100 kills) and tests/e2e/ingest-kills.test.ts (a few). Each gateway
// is the daemon's own buffer (SQLite) and uploader (gzip batches, backoff with jitter, a reading
// leaves the buffer only once the server answered 2xx for it), fed a minute of its sensors every
// few milliseconds, replaying history as after an outage. The web process is killed at random
// moments and started again on the same port; at the end every reading a 2xx answer covered is
// in the table once with its value, and once the gateways drained, every reading they buffered.

const SENSORS = 20;
const MINUTE = 60_000;

export interface IngestKillsOptions {
  db: Db;
  databaseUrl: string;
  kills: number;
  gateways: number;
  /** Store ids start with it (the e2e database is shared). */
  prefix: string;
  /** Seeded: the moments of the kills. */
  random: () => number;
  /** The longest run of the web process between two kills, from its first answer. */
  maxUpMs?: number;
  /** A simulated minute of every gateway's sensors every this many ms. */
  feedEveryMs?: number;
  progress?: (kills: number) => void;
}

export interface IngestKillsResult {
  kills: number;
  /** Batches answered 2xx, and how many of their readings the server counted as duplicates (a batch it had stored before the kill cut its answer). */
  batches: number;
  duplicatesAnswered: number;
  readingsGenerated: number;
  /** Readings a 2xx answer covered, as accepted or duplicate. */
  readingsAnswered: number;
  rowsStored: number;
  /** Answered but not in the table, or with another value. */
  answeredMissing: number;
  wrongValues: number;
  /** Generated (buffered) but not in the table after the drain. */
  lost: number;
  unexpected: number;
  doubled: number;
  bufferLeft: number;
  seconds: number;
}

/** The daemon's buffer, noting every reading the uploader removes: removal follows a 2xx answer only. */
class AnsweredBuffer extends ReadingBuffer {
  readonly answered: Reading[] = [];

  override remove(readings: readonly Pick<Reading, 'serialNo' | 'measuredAt'>[], clearOverflow: boolean): number {
    this.answered.push(...(readings as Reading[]));
    return super.remove(readings, clearOverflow);
  }
}

interface SimulatedGateway {
  storeId: string;
  dataDir: string;
  buffer: AnsweredBuffer;
  uploader: Uploader;
  equipmentIds: number[];
}

const key = (storeId: string, equipmentId: number, at: number) => `${storeId}|${equipmentId}|${at}`;
const temperatureAt = (sensor: number, minute: number) => Math.round((3 + 2 * Math.sin(minute / 37 + sensor)) * 10) / 10;

export async function runIngestKills(options: IngestKillsOptions): Promise<IngestKillsResult> {
  const { db, databaseUrl, kills, random } = options;
  const maxUpMs = options.maxUpMs ?? 1500;
  const feedEveryMs = options.feedEveryMs ?? 25;
  const serials = Array.from({ length: SENSORS }, (_, i) => bleAddress('D7', i));
  const port = String(await freePort());
  let server = await serveConsole(databaseUrl, { PORT: port });
  // History far enough back for the whole run: one simulated minute per feed, per gateway.
  const start = Math.floor(Date.now() / MINUTE) * MINUTE - 45 * 86400_000;
  await ensureMeasurementPartitions(db, new Date(start), new Date());
  const gateways: SimulatedGateway[] = [];
  for (let g = 0; g < options.gateways; g += 1) {
    const storeId = `${options.prefix}${g}`;
    const equipmentIds = await createBenchStore(db, storeId, serials, () => ({ lower_limit: -30, upper_limit: 60 }));
    const dataDir = await pairGatewayDataDir(server.base, storeId);
    const logger = silentLogger();
    const buffer = new AnsweredBuffer({ file: path.join(dataDir, BUFFER_FILE), maxRows: 2_000_000, warnRatio: 0.8, logger });
    await buffer.start();
    const uploader = new Uploader({
      buffer,
      credentials: new Credentials(new DataDir(dataDir), undefined, logger),
      logger,
      batchSize: 250,
      delayMs: 0,
      backoff: { baseMs: 50, maxMs: 1000 },
      retryAfterMaxMs: 2000,
      requestTimeoutMs: 15_000,
    });
    await uploader.start();
    gateways.push({ storeId, dataDir, buffer, uploader, equipmentIds });
  }

  const expected = new Map<string, number>();
  let minute = 0;
  const feed = setInterval(() => {
    const at = start + minute * MINUTE;
    if (at > Date.now() - MINUTE) return; // never ahead of the clock
    for (const gateway of gateways) {
      const readings = serials.map((serialNo, s) => ({ serialNo, measuredAt: formatMeasuredAt(at), temperature: temperatureAt(s, minute), error: false, battery: 90, rssi: -70 }));
      gateway.buffer.insert(readings);
      gateway.equipmentIds.forEach((id, s) => expected.set(key(gateway.storeId, id, at), temperatureAt(s, minute)));
    }
    minute += 1;
  }, feedEveryMs);

  const t0 = performance.now();
  try {
    for (let k = 0; k < kills; k += 1) {
      await new Promise((resolve) => setTimeout(resolve, random() * maxUpMs));
      const gone = new Promise((resolve) => server.process.once('exit', resolve));
      server.process.kill('SIGKILL');
      await gone;
      options.progress?.(k + 1);
      server = await serveConsole(databaseUrl, { PORT: port });
    }
    clearInterval(feed);
    await Promise.all(gateways.map((gateway) => gateway.uploader.whenDrained()));
  } finally {
    clearInterval(feed);
    for (const gateway of gateways) await gateway.uploader.stop();
    await server.stop();
  }
  const seconds = (performance.now() - t0) / 1000;
  const result = await checkTable(db, gateways, serials, expected);
  let bufferLeft = 0;
  for (const gateway of gateways) {
    bufferLeft += gateway.buffer.depth;
    await gateway.buffer.stop();
    rmSync(gateway.dataDir, { recursive: true, force: true });
  }
  const totals = gateways.map((gateway) => gateway.uploader.status().totals);
  return {
    kills,
    batches: totals.reduce((sum, t) => sum + t.batches, 0),
    duplicatesAnswered: totals.reduce((sum, t) => sum + t.duplicates, 0),
    readingsGenerated: expected.size,
    ...result,
    bufferLeft,
    seconds: Math.round(seconds),
  };
}

/** The gateways' stores' rows against what was generated and what 2xx answers covered. */
async function checkTable(db: Db, gateways: SimulatedGateway[], serials: string[], expected: Map<string, number>) {
  const rows = await db
    .selectFrom('measurements')
    .select(['store_id', 'equipment_id', 'measured_at', 'temperature'])
    .where('store_id', 'in', gateways.map((gateway) => gateway.storeId))
    .execute();
  const stored = new Map<string, number | null>();
  let doubled = 0;
  let unexpected = 0;
  for (const row of rows) {
    const k = key(row.store_id, row.equipment_id, row.measured_at.getTime());
    if (stored.has(k)) doubled += 1;
    stored.set(k, row.temperature);
    if (!expected.has(k)) unexpected += 1;
  }
  let answeredMissing = 0;
  let wrongValues = 0;
  let readingsAnswered = 0;
  for (const gateway of gateways) {
    const idOf = new Map(serials.map((serial, s) => [serial, gateway.equipmentIds[s]]));
    for (const reading of gateway.buffer.answered) {
      readingsAnswered += 1;
      const k = key(gateway.storeId, idOf.get(reading.serialNo)!, parseCompact(reading.measuredAt)!.getTime());
      if (!stored.has(k)) answeredMissing += 1;
      else if (Math.abs((stored.get(k) ?? Number.NaN) - reading.temperature!) > 0.01) wrongValues += 1;
    }
  }
  const lost = [...expected.keys()].filter((k) => !stored.has(k)).length;
  return { readingsAnswered, rowsStored: rows.length, answeredMissing, wrongValues, lost, unexpected, doubled };
}
