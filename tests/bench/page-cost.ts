// What one load of each page of the chain rig costs (issue 17 part 2): the CPU of the web process
// and of PostgreSQL a request, which a busy machine does not bend the way it bends latency. The
// chain of tests/bench/chain.ts (STORES, 2,000 by default, seeded in SQL), the production console
// with no other load, one signed-in user loading each page RUNS times one after another; per page
// the wall-clock p50/p95 and the CPU milliseconds of the web process and of PostgreSQL (every
// backend and the postmaster's children, from /proc) per request.
//   env -u DATABASE_URL npx tsx tests/bench/page-cost.ts        (STORES=2000, RUNS=40)
//   ONLY=month: the pages whose name holds it; PROFILE=dir: the web process's V8 CPU profile.
import os from 'node:os';
import { machine, percentile, serveConsole } from '../support/console';
import { runBench } from '../support/bench';
import { sampleTree } from './chain/proc';
import { postmasterPid, rigOptionsFromEnv } from './chain/rig';
import { seedChain } from './chain/seed';
import { chainPages, signIn } from './chain/users';

const RUNS = Number(process.env.RUNS ?? 40);
const WARM_UP = 5;

runBench('onreco_page_cost', async ({ db, url }) => {
  const options = rigOptionsFromEnv({ STORES: '2000', ...process.env });
  const now = new Date();
  const chain = await seedChain(db, options, now);
  const profile = process.env.PROFILE;
  const server = await serveConsole(url, {}, undefined, profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []);
  try {
    const postgresql = await postmasterPid(db);
    if (!postgresql) throw new Error('the PostgreSQL server is not on this machine: its CPU cannot be read');
    const cookies = { admin: await signIn(server.base, 'admin'), area: await signIn(server.base, 'area') };
    const cpu = () => ({ web: sampleTree(server.process.pid!).cpuSeconds, postgresql: sampleTree(postgresql).cpuSeconds });
    const figures: Record<string, { p50_ms: number; p95_ms: number; web_cpu_ms: number; postgresql_cpu_ms: number; bytes: number }> = {};
    const loadAtStart = os.loadavg();
    for (const page of chainPages(chain, options.stores, now).filter((p) => p.name.includes(process.env.ONLY ?? ''))) {
      const times: number[] = [];
      let bytes = 0;
      let before = cpu();
      for (let run = 0; run < WARM_UP + RUNS; run += 1) {
        if (run === WARM_UP) before = cpu();
        const started = performance.now();
        const response = await fetch(server.base + page.path(run), { headers: { Cookie: cookies[page.role] }, redirect: 'manual' });
        bytes = (await response.arrayBuffer()).byteLength;
        if (response.status !== 200) throw new Error(`${page.name}: ${response.status}`);
        if (run >= WARM_UP) times.push(performance.now() - started);
      }
      const after = cpu();
      times.sort((a, b) => a - b);
      const perRequest = (seconds: number) => Number(((seconds * 1000) / RUNS).toFixed(1));
      figures[page.name] = {
        p50_ms: Number(percentile(times, 0.5).toFixed(1)),
        p95_ms: Number(percentile(times, 0.95).toFixed(1)),
        web_cpu_ms: perRequest(after.web - before.web),
        postgresql_cpu_ms: perRequest(after.postgresql - before.postgresql),
        bytes,
      };
    }
    console.log(JSON.stringify({ machine: machine(), load_average: { at_start: loadAtStart, at_end: os.loadavg() }, stores: options.stores, runs: RUNS, pages: figures }, null, 2));
    console.log('page'.padEnd(42), 'p50 ms', ' p95 ms', ' web CPU ms', ' PG CPU ms', '  bytes');
    for (const [name, f] of Object.entries(figures)) {
      console.log(name.padEnd(42), String(f.p50_ms).padStart(6), String(f.p95_ms).padStart(7), String(f.web_cpu_ms).padStart(11), String(f.postgresql_cpu_ms).padStart(10), String(f.bytes).padStart(8));
    }
  } finally {
    await server.stop();
  }
});
