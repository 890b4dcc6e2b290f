// The largest store import (5,000 stores, 4 sensors each) through POST /v1/stores/import's route
// module, in-process on a fresh database, with the event loop watched by
// perf_hooks.monitorEventLoopDelay: the longest stall while the import is read and answered is
// what every other request of the web process waits at worst (decision 279). Three runs: a valid
// dry run sent gzipped (as the CLI sends it), the same import written, and one wrong in every
// store and sensor (the size of its answer too).
//   DATABASE_URL=postgres://… npx tsx tests/bench/store-import.ts      (STORES=5000, CASES=dry,wrong,written)
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { createDb } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { TEST_PASSWORD, createCompanyAndGroup, createUser } from '../fixtures/chain';
import { machine } from '../support/console';
import { prepareTestDatabase } from '../support/database';
import { BASE, tokenFor } from '../support/requests';
import { storeImportBody } from '../support/store-import-body';

const STORES = Number(process.env.STORES ?? 5_000);

async function main() {
  const database = await prepareTestDatabase('onreco_bench_store_import');
  process.env.DATABASE_URL = database.url;
  const db = createDb(database.url, 4);
  try {
    await migrateToLatest(db);
    await createCompanyAndGroup(db);
    await createUser(db, 'admin', 1);
    await createUser(db, 'store', 101);
    const token = await tokenFor('admin', TEST_PASSWORD);
    const { action } = await import('../../app/routes/on-reco+/v1.stores.import');
    console.log(`store import bench: ${STORES} stores, 4 sensors each; ${machine()}`);
    const run = async (label: string, body: unknown) => {
      const json = JSON.stringify(body);
      const gzipped = gzipSync(json);
      const request = new Request(`${BASE}/on-reco/v1/stores/import`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body: gzipped,
      });
      const delay = monitorEventLoopDelay({ resolution: 1 });
      const started = performance.now();
      delay.enable();
      let response: Response;
      try {
        response = (await action({ request, params: {}, context: {} })) as Response;
      } catch (thrown) {
        if (!(thrown instanceof Response)) throw thrown;
        response = thrown;
      }
      const answer = await response.text();
      const ms = performance.now() - started;
      // A stall that ends the answer is recorded at the loop's next turn: wait for it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      delay.disable();
      console.log(
        `${label.padEnd(22)} body ${(json.length / 2 ** 20).toFixed(1)} MB (${(gzipped.length / 2 ** 10).toFixed(0)} KB gzip)  ${response.status}  ` +
          `answer ${answer.length.toLocaleString('en')} B  total ${(ms / 1000).toFixed(2)} s  ` +
          `longest stall ${(delay.max / 1e6).toFixed(0)} ms  p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms  load ${machine().split('load average ')[1]}`,
      );
    };
    const cases = process.env.CASES?.split(',') ?? ['dry', 'wrong', 'written'];
    if (cases.includes('dry')) await run('valid, dry run', storeImportBody(STORES));
    if (cases.includes('wrong')) await run('wrong everywhere', storeImportBody(STORES, { invalid: true }));
    if (cases.includes('written')) await run('valid, written', storeImportBody(STORES, { dryRun: false }));
  } finally {
    await db.destroy();
    await database.release();
  }
  process.exit(0);
}

void main();
