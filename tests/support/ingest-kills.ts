import type { Db } from '../../app/db/db.server';
import { bucketDifferences } from './buckets';
import { serveConsole } from './console';
import { freePort } from './ports';
import { type SimulatedGatewaysCheck, startSimulatedGateways } from './simulated-gateways';

// kill -9 of the web process while simulated gateways upload to it (issue 17 part 7), shared by
// tests/bench/ingest-kills.ts (100 kills) and tests/e2e/ingest-kills.test.ts (a few). The web
// process is killed at random moments and started again on the same port.

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

export interface IngestKillsResult extends SimulatedGatewaysCheck {
  kills: number;
  seconds: number;
  /** The gateways' stores' bucket rows that differ from a count of their readings (either way): 0 when right. */
  bucketsWrong: number;
}

export async function runIngestKills(options: IngestKillsOptions): Promise<IngestKillsResult> {
  const { db, databaseUrl, kills, random } = options;
  const maxUpMs = options.maxUpMs ?? 1500;
  const port = String(await freePort());
  let server = await serveConsole(databaseUrl, { PORT: port });
  const gateways = await startSimulatedGateways(db, server.base, { count: options.gateways, prefix: options.prefix });
  gateways.startFeed(options.feedEveryMs ?? 25);
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
    gateways.stopFeed();
    await gateways.drained();
  } catch (error) {
    await gateways.finish().catch(() => undefined);
    throw error;
  } finally {
    await server.stop();
  }
  const seconds = (performance.now() - t0) / 1000;
  const check = await gateways.finish();
  const stores = await db.selectFrom('stores').select('store_id').where('store_id', 'like', `${options.prefix}%`).execute();
  const buckets = await bucketDifferences(db, { storeIds: stores.map((store) => store.store_id) });
  return { kills, ...check, seconds: Math.round(seconds), bucketsWrong: buckets.onlyKept.length + buckets.onlyCounted.length };
}
