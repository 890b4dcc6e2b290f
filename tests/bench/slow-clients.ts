// Slow-body clients against the real console (issue 24; docs/decisions/213-slow-clients-and-proxies.md):
// a client on 127.0.0.1 signs in (POST /on-reco/token) and a paired gateway posts readings, first
// alone, then while 500 connections from 127.0.0.2 each send a POST head and a few bytes of its
// body and nothing more (one the server closes is opened again a second later). Sign-in p95 and
// the gateway's post time (its ingest lag: the reading is stored when the answer comes) p95, side
// by side in one run, in alternating rounds; the median ratio should stay within 1.2. The server
// holds 16 of the slow bodies (its cap per address) and refuses the rest at once, so the slow
// side is mostly a reconnecting flood of refused connections.
//   npx tsx tests/bench/slow-clients.ts            (RUNS=40 SLOW=500 ROUNDS=3 to change)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { toCompactDateTime } from '../../app/domain/japan-time';
import { TEST_PASSWORD, createUser } from '../fixtures/chain';
import { BENCH_PIN, createBenchStore, startBenchConsole } from '../support/bench';
import { machine, percentile } from '../support/console';
import { pairOverApi } from '../support/gateway-api';

const RUNS = Number(process.env.RUNS ?? 40);
const SLOW = Number(process.env.SLOW ?? 500);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SERIAL = 'AA:BB:0E:00:00:01';

/** CPU time (user + system) of a process so far, in ms. */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
};

const p95 = (times: number[]) => Math.round(percentile([...times].sort((a, b) => a - b), 0.95) * 10) / 10;

/** The slow connections, from a process of their own (slow-clients/flood.ts); counts as it last printed them. */
async function slowClients(base: string, path: string): Promise<{ stop(): Promise<void>; open(): number; refused(): number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./slow-clients/flood.ts', import.meta.url)), base, path, String(SLOW)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let last = { open: 0, refused: 0 };
  createInterface({ input: child.stdout! }).on('line', (line) => (last = JSON.parse(line) as typeof last));
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  return {
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
    open: () => last.open,
    refused: () => last.refused,
  };
}

async function main() {
  const console_ = await startBenchConsole('onreco_bench_slow_clients', new Date(Date.now() - 3 * 86400_000));
  try {
    await createBenchStore(console_.db, 'SLW01', [SERIAL]);
    await createUser(console_.db, 'bench-user', 30, { storeIds: ['SLW01'] });
    const gatewayToken = await pairOverApi(console_.base, 'SLW01', BENCH_PIN);
    let minute = Math.floor(Date.now() / 60_000) - 2 * 24 * 60;
    const signIn = async () => {
      const started = performance.now();
      const response = await fetch(`${console_.base}/on-reco/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'bench-user', password: TEST_PASSWORD }) });
      if (response.status !== 200) throw new Error(`sign-in: ${response.status}`);
      await response.arrayBuffer();
      return performance.now() - started;
    };
    const post = async () => {
      minute += 1;
      const reading = { serial_no: SERIAL, measured_at: toCompactDateTime(new Date(minute * 60_000)), temperature: 4.2, error: false, battery: 90, receive_sensitivity: -60 };
      const started = performance.now();
      const response = await fetch(`${console_.base}/on-reco/v1/gateway/readings`, { method: 'POST', headers: { Authorization: `Bearer ${gatewayToken}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ readings: [reading] }) });
      const answer = (await response.json()) as { accepted?: number };
      if (response.status !== 200 || answer.accepted !== 1) throw new Error(`readings: ${response.status} ${JSON.stringify(answer)}`);
      return performance.now() - started;
    };
    /** RUNS sign-ins and RUNS posts, each kind in its own sequence, side by side. */
    const measure = async () => {
      const signIns: number[] = [];
      const posts: number[] = [];
      const cpuBefore = cpuMs(console_.serverPid);
      const started = performance.now();
      await Promise.all([
        (async () => {
          for (let i = 0; i < RUNS; i++) signIns.push(await signIn());
        })(),
        (async () => {
          for (let i = 0; i < RUNS; i++) posts.push(await post());
        })(),
      ]);
      // The web server's CPU per second of the measurement: what the slow side costs it.
      const serverCpuMsPerS = Math.round(((cpuMs(console_.serverPid) - cpuBefore) / (performance.now() - started)) * 1000);
      return { signInP95: p95(signIns), ingestP95: p95(posts), serverCpuMsPerS, load: os.loadavg()[0].toFixed(1) };
    };
    await measure(); // warm-up
    // Rounds alternate, so that the machine's other load falls on both sides alike.
    const rounds: { without: Awaited<ReturnType<typeof measure>>; withSlow: Awaited<ReturnType<typeof measure>>; open: number; refused: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const without = await measure();
      const slow = await slowClients(console_.base, '/on-reco/token');
      // Past the first wave of refusals (answered 5–10 s after it came), into the reconnecting churn.
      await new Promise((resolve) => setTimeout(resolve, 12_000));
      const open = slow.open();
      const refusedBefore = slow.refused();
      const withSlow = await measure();
      rounds.push({ without, withSlow, open, refused: slow.refused() - refusedBefore });
      await slow.stop();
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const ratioOf = (pick: (figures: Awaited<ReturnType<typeof measure>>) => number) => Math.round(median(rounds.map((round) => pick(round.withSlow) / pick(round.without))) * 100) / 100;
    console.log(
      JSON.stringify({
        bench: 'slow-clients',
        machine: machine(),
        runs: RUNS,
        slowConnections: SLOW,
        rounds,
        medianRatio: { signInP95: ratioOf((f) => f.signInP95), ingestP95: ratioOf((f) => f.ingestP95), serverCpu: ratioOf((f) => f.serverCpuMsPerS) },
      }),
    );
  } finally {
    await console_.stop();
  }
}

await main();
process.exit(0);
