// kill -9 of the web process, 100 times at random moments, while simulated gateways (the daemon's
// own buffer and uploader, with its retries) post readings through the real HTTP API; the web
// process is started again on the same port each time. Then every reading a 2xx answer covered is
// in the table once, with its value, and once the gateways drained, every reading they buffered.
// (tests/support/ingest-kills.ts; tests/e2e/ingest-kills.test.ts runs a few kills in the suite.)
//   npx tsx tests/bench/ingest-kills.ts            (KILLS=100 GATEWAYS=4 SEED=1 to change)
import { machine } from '../support/console';
import { runIngestKills } from '../support/ingest-kills';
import { seededRandom } from '../support/seed';
import { type BenchDatabase, runBench } from '../support/bench';

const KILLS = Number(process.env.KILLS ?? 100);
const GATEWAYS = Number(process.env.GATEWAYS ?? 4);
const SEED = Number(process.env.SEED ?? 1);

async function main({ db, url }: BenchDatabase) {
  const result = await runIngestKills({
    db, databaseUrl: url, kills: KILLS, gateways: GATEWAYS, prefix: 'KILL', random: seededRandom(SEED),
    progress: (kills) => kills % 10 === 0 && console.error(`${kills} kills`),
  });
  const ok = result.answeredMissing === 0 && result.wrongValues === 0 && result.lost === 0 && result.unexpected === 0 && result.doubled === 0 && result.bufferLeft === 0;
  console.log(JSON.stringify({ machine: machine(), seed: SEED, gateways: GATEWAYS, ...result, ok }, null, 2));
  if (!ok) process.exitCode = 1;
}

runBench('onreco_bench_ingest_kills', main);
