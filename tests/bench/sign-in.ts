// Sign-in figures under the throttle's bookkeeping (docs/decisions/090-sign-in-limits.md):
// POST /on-reco/token through its route module, in-process, on a fresh database. A successful
// sign-in (argon2id verify + the limit checks + remembering the address + the token), and a
// failed one for a known id, an unknown id and a disabled id, each from its own address and each
// failure on an account of its own, so that no limit is reached; p50/p95 over RUNS each. The three
// failures should cost the same.
//   npx tsx tests/bench/sign-in.ts            (RUNS=60 to change)
import { createDb } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { action as tokenAction } from '../../app/routes/on-reco+/token';
import { TEST_PASSWORD, createUser } from '../fixtures/chain';
import { machine, percentile } from '../support/console';
import { prepareTestDatabase } from '../support/database';
import { postForm } from '../support/requests';

const RUNS = Number(process.env.RUNS ?? 60);

async function main() {
  const database = await prepareTestDatabase('onreco_bench_sign_in');
  process.env.DATABASE_URL = database.url;
  const db = createDb(database.url, 4);
  try {
    await migrateToLatest(db);
    await createUser(db, 'known', 30);
    for (let i = 0; i < RUNS + 3; i += 1) {
      await createUser(db, `known${i}`, 30);
      await createUser(db, `disabled${i}`, 30, { validFlg: 0 });
    }
    let address = 0;
    const signIn = async (username: string, password: string, expected: number) => {
      address += 1;
      const request = postForm('/on-reco/token', { grant_type: 'password', username, password });
      const started = performance.now();
      const response = (await tokenAction({ request, params: {}, context: { clientAddress: `10.0.${address >> 8}.${address & 255}` } })) as Response;
      const ms = performance.now() - started;
      if (response.status !== expected) throw new Error(`${username}: ${response.status}, expected ${expected}`);
      return ms;
    };
    /** `username(i)`: the account of the i-th sign-in. */
    const figures = async (username: (i: number) => string, password: string, expected: number) => {
      for (let i = 0; i < 3; i += 1) await signIn(username(RUNS + i), password, expected); // warm-up
      const times: number[] = [];
      for (let i = 0; i < RUNS; i += 1) times.push(await signIn(username(i), password, expected));
      times.sort((a, b) => a - b);
      return { p50: Math.round(percentile(times, 0.5) * 10) / 10, p95: Math.round(percentile(times, 0.95) * 10) / 10 };
    };
    const success = await figures(() => 'known', TEST_PASSWORD, 200);
    const knownWrong = await figures((i) => `known${i}`, 'wrong-password', 400);
    const unknown = await figures((i) => `nobody${i}`, 'wrong-password', 400);
    const disabled = await figures((i) => `disabled${i}`, TEST_PASSWORD, 400);
    console.log(JSON.stringify({ bench: 'sign-in', machine: machine(), runs: RUNS, ms: { success, knownWrong, unknown, disabled } }));
  } finally {
    await db.destroy();
    await database.release();
  }
}

await main();
process.exit(0);
