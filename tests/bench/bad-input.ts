// The bad-input sweep of tests/api/bad-input.test.ts at 100,000 cases: the same generated cases
// (tests/support/bad-input.ts), in process through the route modules, against a fresh database.
// Prints one JSON line {bench, cases, seconds, failures, seed, machine}, and the failures, if
// any, on stderr (exit code 1).
//   env -u DATABASE_URL npx tsx tests/bench/bad-input.ts      (CASES=… TEST_SEED=… to change)
import { machine } from '../support/console';
import { prepareTestDatabase } from '../support/database';
import { testSeed } from '../support/seed';

const CASES = Number(process.env.CASES ?? 100_000);
const CASE_TIMEOUT_MS = 5000;

async function main() {
  const database = await prepareTestDatabase('onreco_bench_bad_input');
  // The route modules reach the database through getDb(), which reads these when first called.
  process.env.DATABASE_URL = database.url;
  process.env.LOG_LEVEL ??= 'silent';
  const { getDb } = await import('../../app/db/db.server');
  const { migrateToLatest } = await import('../../app/db/migrate.server');
  const sweep = await import('../support/bad-input');
  const db = getDb();
  try {
    await migrateToLatest(db);
    const world = await sweep.buildSweepWorld(db);
    const seed = testSeed('bad-input bench', 20261124);
    const started = performance.now();
    const cases = sweep.sweepCases(sweep.plansOf(world, new Date()), world.adminToken, CASES, seed);
    const { count, failures } = await sweep.runSweep(db, cases, CASE_TIMEOUT_MS);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    console.log(JSON.stringify({ bench: 'bad-input', cases: count, seconds, failures: failures.length, seed, machine: machine() }));
    if (failures.length) {
      console.error(sweep.reportOf(failures, 100));
      process.exitCode = 1;
    }
  } finally {
    await db.destroy();
    await database.release();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
