// Rolling restarts of WEB_CONCURRENCY web processes (ROLLING_RESTART_SIGNAL, `systemctl reload
// onreco-web`) while simulated gateways (the daemon's own buffer and uploader) post readings:
// how long each roll takes, how many gateway posts failed (each one retried by the gateway), and
// that every reading is in the table once (tests/support/rolling-restart.ts; the e2e test runs two
// rolls of three). Wall-clock figures: the load average is printed beside each roll.
//   npx tsx tests/bench/rolling-restart.ts          (ROLLS=5 WEB=3 GATEWAYS=6 to change)
import { type BenchDatabase, runBench } from '../support/bench';
import { machine } from '../support/console';
import { runRollingRestart } from '../support/rolling-restart';

const ROLLS = Number(process.env.ROLLS ?? 5);
const WEB = Number(process.env.WEB ?? 3);
const GATEWAYS = Number(process.env.GATEWAYS ?? 6);

async function main({ db, url }: BenchDatabase) {
  const result = await runRollingRestart({ db, databaseUrl: url, webProcesses: WEB, rolls: ROLLS, gateways: GATEWAYS, prefix: 'ROLL' });
  const ok = result.allReplaced && result.failedUploads === 0 && result.lost === 0 && result.doubled === 0 && result.answeredMissing === 0 && result.bufferLeft === 0;
  console.log(JSON.stringify({ machine: machine(), webProcesses: WEB, gateways: GATEWAYS, ...result, ok }, null, 2));
  if (!ok) process.exitCode = 1;
}

runBench('onreco_bench_rolling_restart', main);
