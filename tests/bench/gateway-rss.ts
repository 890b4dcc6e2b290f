// Memory of the daemon: `run --source simulate` with 20 sensors (and `run --source replay:` of the
// capture fixture), as a child process, against the protocol test peer; once through the launcher
// (bin/onreco-gateway.js, tsx) and once as deployed (the bundle of gateway/deploy/build.ts with
// the unit's V8 flags). Samples the child's RSS (/proc/PID/status VmRSS) every 200 ms.
//   npx tsx tests/bench/gateway-rss.ts [seconds] [simulate-speed]     (LAUNCHER=bundle or tsx: only that one)
//   PACKAGED=<dir>/usr/lib/onreco-gateway/onreco-gateway.mjs LAUNCHER=packaged ...: the Debian package's bundle
// Default: 60 s at speed 60, i.e. one simulated hour (1,200 readings, ~14,400 advertisements).
// Target: <= 64 MB.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../gateway/cli';
import { buildGateway } from '../../gateway/deploy/build';
import { TestPeer } from '../unit/gateway/support/test-peer';

const ROOT = path.resolve(import.meta.dirname, '../..');
const seconds = Number(process.argv[2] ?? 60);
const speed = Number(process.argv[3] ?? 60);
const storeConfig = JSON.parse(readFileSync(path.join(ROOT, 'tests/fixtures/gateway/store-config.json'), 'utf8'));

function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

async function measure(label: string, launch: string[], args: string[], limitSeconds: number) {
  const peer = new TestPeer({ config: storeConfig });
  await peer.start();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-rss-'));
  const quiet = { stdout: () => undefined, stderr: () => undefined, env: {}, waitForStop: () => new Promise<string>(() => undefined), exitCode: 0 };
  await runCli(['pair', '--data-dir', dataDir, '--server', peer.url, '--gateway-info', 'GW-0001', '--pin', '123456'], quiet);

  const child = spawn(process.execPath, [...launch, 'run', '--data-dir', dataDir, '--log-level', 'warn', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const samples: number[] = [];
  const timer = setInterval(() => {
    const mb = rssMb(child.pid!);
    if (mb !== null) samples.push(mb);
  }, 200);
  const stop = setTimeout(() => child.kill('SIGTERM'), limitSeconds * 1000);
  const started = Date.now();
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearInterval(timer);
  clearTimeout(stop);
  await peer.stop();
  rmSync(dataDir, { recursive: true, force: true });
  const max = Math.max(...samples);
  const last = samples.slice(-Math.max(1, Math.floor(samples.length / 4)));
  console.log(
    `${label}: ${((Date.now() - started) / 1000).toFixed(1)} s, exit ${code}, ${peer.stored.size} readings uploaded; ` +
      `RSS max ${max.toFixed(1)} MB, last quarter avg ${(last.reduce((a, b) => a + b, 0) / last.length).toFixed(1)} MB ` +
      `(target <= 64 MB: ${max <= 64 ? 'met' : 'NOT met'})`,
  );
}

// The two ways to start the daemon: the launcher (through tsx), and the bundle with the V8 flags
// of the systemd unit (gateway/deploy/onreco-gateway.service).
const bundle = await buildGateway(path.join(ROOT, 'node_modules/.cache/onreco-gateway/onreco-gateway.mjs'));
const launchers: [string, string[]][] = [
  ['bin/onreco-gateway.js (tsx)', [path.join(ROOT, 'bin/onreco-gateway.js')]],
  ['bundle + unit flags', ['--max-semi-space-size=1', '--v8-pool-size=1', bundle]],
  // The Debian package's bundle (its packages inside it): PACKAGED=<extracted>/usr/lib/onreco-gateway/onreco-gateway.mjs
  ...(process.env.PACKAGED ? [['packaged bundle + unit flags', ['--max-semi-space-size=1', '--v8-pool-size=1', process.env.PACKAGED]] as [string, string[]]] : []),
];
const capture = path.join(ROOT, 'tests/fixtures/gateway/store-capture.jsonl.gz');

console.log(`machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const [name, launch] of launchers.filter(([name]) => !process.env.LAUNCHER || name.includes(process.env.LAUNCHER))) {
  await measure(`${name}: simulate, 20 sensors, ${seconds} s at speed ${speed}`, launch, ['--source', 'simulate', '--simulate-speed', String(speed)], seconds);
  await measure(`${name}: replay of the capture fixture (3 h, 20 sensors), --exit-when-drained`, launch, ['--source', `replay:${capture}`, '--exit-when-drained'], 300);
}
