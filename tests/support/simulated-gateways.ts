import { rmSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Reading } from '../../gateway/aggregator';
import { ReadingBuffer } from '../../gateway/buffer';
import { Credentials } from '../../gateway/credentials';
import { createLogger } from '../../gateway/log';
import { BUFFER_FILE, DataDir } from '../../gateway/state';
import { formatMeasuredAt } from '../../gateway/time';
import { Uploader } from '../../gateway/uploader';
import type { Db } from '../../app/db/db.server';
import { parseCompact } from '../../app/domain/japan-time';
import { ensureMeasurementPartitions } from '../../app/models/measurement-partitions.server';
import { bleAddress } from '../fixtures/chain';
import { createBenchStore, pairGatewayDataDir } from './bench';

// Gateways as the daemon runs them, minus the radio: each is the daemon's own buffer (SQLite) and
// uploader (gzip batches, backoff with jitter, a reading leaves the buffer only once the server
// answered 2xx for it), fed a minute of its sensors every few milliseconds, replaying history as
// after an outage. At the end every reading a 2xx answer covered is in the table once with its
// value, and once the gateways drained, every reading they buffered. Shared by the kill runs
// (tests/support/ingest-kills.ts) and the rolling restart (tests/e2e/rolling-restart.test.ts).

const SENSORS = 20;
const MINUTE = 60_000;

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

export interface SimulatedGatewaysCheck {
  /** Batches answered 2xx, and how many of their readings the server counted as duplicates (a batch it had stored before a cut answer). */
  batches: number;
  duplicatesAnswered: number;
  /** Upload attempts that failed (no answer, or not 2xx): each was retried. */
  failedUploads: number;
  /** Why they failed, each reason once. */
  failureReasons: string[];
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
}

export interface SimulatedGateways {
  /** Each gateway's store and its sensors' equipment ids. */
  stores: { storeId: string; equipmentIds: number[] }[];
  /** Feeds a simulated minute of every gateway's sensors every `everyMs`, never ahead of the clock. */
  startFeed(everyMs: number): void;
  stopFeed(): void;
  readingsGenerated(): number;
  /** Resolves once every buffer is empty. */
  drained(): Promise<void>;
  /** Stops the uploaders, compares the table with what was generated and answered, removes the data dirs. */
  finish(): Promise<SimulatedGatewaysCheck>;
}

const key = (storeId: string, equipmentId: number, at: number) => `${storeId}|${equipmentId}|${at}`;
const temperatureAt = (sensor: number, minute: number) => Math.round((3 + 2 * Math.sin(minute / 37 + sensor)) * 10) / 10;

/** `count` stores of SENSORS sensors (ids `prefix`0…), each with a gateway paired over `base` and uploading to it. */
export async function startSimulatedGateways(db: Db, base: string, { count, prefix }: { count: number; prefix: string }): Promise<SimulatedGateways> {
  const serials = Array.from({ length: SENSORS }, (_, i) => bleAddress('D7', i));
  // History far enough back for the whole run: one simulated minute per feed, per gateway.
  const start = Math.floor(Date.now() / MINUTE) * MINUTE - 45 * 86400_000;
  await ensureMeasurementPartitions(db, new Date(start), new Date());
  const failureReasons: string[] = [];
  const failures = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.includes('upload failed')) failureReasons.push(String((JSON.parse(line) as { failure?: unknown }).failure));
      }
      done();
    },
  });
  const gateways: SimulatedGateway[] = [];
  for (let g = 0; g < count; g += 1) {
    const storeId = `${prefix}${g}`;
    const equipmentIds = await createBenchStore(db, storeId, serials, () => ({ lower_limit: -30, upper_limit: 60 }));
    const dataDir = await pairGatewayDataDir(base, storeId);
    const logger = createLogger('warn', failures);
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
  let feed: NodeJS.Timeout | undefined;
  const stopFeed = () => clearInterval(feed);
  return {
    stores: gateways.map(({ storeId, equipmentIds }) => ({ storeId, equipmentIds })),
    startFeed(everyMs) {
      feed = setInterval(() => {
        const at = start + minute * MINUTE;
        if (at > Date.now() - MINUTE) return;
        for (const gateway of gateways) {
          const readings = serials.map((serialNo, s) => ({ serialNo, measuredAt: formatMeasuredAt(at), temperature: temperatureAt(s, minute), error: false, battery: 90, rssi: -70 }));
          gateway.buffer.insert(readings);
          gateway.equipmentIds.forEach((id, s) => expected.set(key(gateway.storeId, id, at), temperatureAt(s, minute)));
        }
        minute += 1;
      }, everyMs);
    },
    stopFeed,
    readingsGenerated: () => expected.size,
    drained: async () => {
      await Promise.all(gateways.map((gateway) => gateway.uploader.whenDrained()));
    },
    async finish() {
      stopFeed();
      for (const gateway of gateways) await gateway.uploader.stop();
      const table = await checkTable(db, gateways, serials, expected);
      let bufferLeft = 0;
      for (const gateway of gateways) {
        bufferLeft += gateway.buffer.depth;
        await gateway.buffer.stop();
        rmSync(gateway.dataDir, { recursive: true, force: true });
      }
      const totals = gateways.map((gateway) => gateway.uploader.status().totals);
      return {
        batches: totals.reduce((sum, t) => sum + t.batches, 0),
        duplicatesAnswered: totals.reduce((sum, t) => sum + t.duplicates, 0),
        failedUploads: failureReasons.length,
        failureReasons: [...new Set(failureReasons)],
        readingsGenerated: expected.size,
        ...table,
        bufferLeft,
      };
    },
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
