import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import type { Db } from '../../app/db/db.server';
import { ROLLING_RESTART_SIGNAL } from '../../app/http/server/web-cluster.server';
import { serveConsole } from './console';
import { waitUntil } from './processes';
import { type SimulatedGatewaysCheck, startSimulatedGateways } from './simulated-gateways';

// A rolling restart of the web processes (`systemctl reload onreco-web`: ROLLING_RESTART_SIGNAL to
// scripts/server.ts under WEB_CONCURRENCY) while simulated gateways upload: every process is
// replaced, one at a time, and no gateway post fails on the way. Shared by
// tests/e2e/rolling-restart.test.ts and tests/bench/rolling-restart.ts.

export interface RollingRestartOptions {
  db: Db;
  databaseUrl: string;
  webProcesses: number;
  rolls: number;
  gateways: number;
  /** Store ids start with it (the e2e database is shared). */
  prefix: string;
  /** A simulated minute of every gateway's sensors every this many ms. */
  feedEveryMs?: number;
}

export interface RollingRestartResult extends SimulatedGatewaysCheck {
  rolls: { seconds: number; loadAverage: number }[];
  /** Every web process of each roll was a new one at its end, as many as before. */
  allReplaced: boolean;
}

export async function runRollingRestart(options: RollingRestartOptions): Promise<RollingRestartResult> {
  const { db, databaseUrl, webProcesses } = options;
  const server = await serveConsole(databaseUrl, { WEB_CONCURRENCY: String(webProcesses) });
  const supervisor = server.process.pid!;
  const forks = () =>
    execFileSync('ps', ['-o', 'pid=', '--ppid', String(supervisor)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter(Boolean);
  const listening = async () => (await fetch(`${server.base}/healthz`).then((r) => r.ok, () => false));
  try {
    await waitUntil(async () => forks().length === webProcesses && (await listening()), 90_000, `${webProcesses} web processes`);
    const gateways = await startSimulatedGateways(db, server.base, { count: options.gateways, prefix: options.prefix });
    const rolls: RollingRestartResult['rolls'] = [];
    let allReplaced = true;
    try {
      gateways.startFeed(options.feedEveryMs ?? 25);
      // Uploads going before the first roll.
      await waitUntil(async () => gateways.readingsGenerated() > 0, 10_000, 'the first readings');
      for (let roll = 0; roll < options.rolls; roll += 1) {
        const before = forks();
        const loadAverage = Number(loadavg()[0].toFixed(1));
        const t0 = performance.now();
        process.kill(supervisor, ROLLING_RESTART_SIGNAL);
        await waitUntil(async () => {
          const now = forks();
          return now.length === webProcesses && now.every((pid) => !before.includes(pid));
        }, 180_000, `roll ${roll + 1}: every web process replaced`);
        rolls.push({ seconds: Number(((performance.now() - t0) / 1000).toFixed(1)), loadAverage });
        allReplaced &&= forks().length === webProcesses;
      }
      gateways.stopFeed();
      await gateways.drained();
    } catch (error) {
      await gateways.finish().catch(() => undefined);
      throw error;
    }
    return { rolls, allReplaced, ...(await gateways.finish()) };
  } finally {
    await server.stop();
  }
}
