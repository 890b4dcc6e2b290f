// What systemd runs (decision 290): starts the current release (or the packaged daemon beside
// this file), starts it again after it switched to a new release (exit EXIT_FOR_UPDATE), and
// rolls a new release back by itself when it exits updateCrashStarts times before it is healthy
// or has not uploaded successfully within updateHealthySeconds. It ships with the package and is
// never replaced by a release, so a release that cannot even start cannot break it.
//   node launcher.mjs run [flags...]     (options from ONRECO_GATEWAY_* and the config file;
//                                         the arguments go to the daemon as they are)
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config';
import { createLogger, flushLogger } from './log';
import { EXIT_FOR_UPDATE, RELEASE_ENTRY, ReleaseDir, type ReleaseState } from './releases';

const config = loadConfig({ env: process.env });
const logger = createLogger(config.logLevel).child({ module: 'launcher' });
const releases = new ReleaseDir(config.releaseDir ?? path.join(config.dataDir, 'releases'));
const packaged = path.join(path.dirname(fileURLToPath(import.meta.url)), RELEASE_ENTRY);
const args = process.argv.slice(2);

let stopSignal: NodeJS.Signals | null = null;
let child: ChildProcess | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopSignal = signal;
    child?.kill(signal);
  });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rollBack(state: ReleaseState, reason: string): void {
  const pending = state.pending!;
  // The link first: a crash between the two leaves a pending switch that is rolled back again.
  releases.switchTo(pending.previous);
  releases.writeState({ pending: null, failures: [...state.failures.filter((f) => f.version !== pending.version), { version: pending.version, reason, at: new Date().toISOString(), reported: false }] });
  // A failed version is never taken again: its directory goes (no daemon runs now to be unpacking one).
  releases.prune([pending.previous]);
  logger.error({ version: pending.version, back_to: pending.previous ?? '(packaged)', reason }, 'rolled back');
}

/** Clears the pending switch once its version reported healthy; true when it did (or none is pending). */
function confirmIfHealthy(): boolean {
  const state = releases.readState();
  if (!state.pending) return true;
  const healthy = releases.readHealthy();
  if (healthy?.version !== state.pending.version || healthy.at < state.pending.switchedAt) return false;
  releases.writeState({ ...state, pending: null });
  logger.info({ version: state.pending.version }, 'the new release is healthy');
  return true;
}

function exitOf(running: ChildProcess): Promise<number> {
  return new Promise((resolve) => running.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
}

let crashes = 0;
for (;;) {
  const state = releases.readState();
  if (state.pending && !confirmIfHealthy()) {
    if (state.pending.starts >= config.updateCrashStarts) {
      rollBack(state, `exited ${state.pending.starts} times at start before it was healthy`);
      continue;
    }
    releases.writeState({ ...state, pending: { ...state.pending, starts: state.pending.starts + 1 } });
  }
  const entry = releases.currentEntry() ?? packaged;
  logger.info({ entry, version: releases.currentVersion() ?? '(packaged)' }, 'starting the daemon');
  child = spawn(process.execPath, [...process.execArgv, entry, ...args], { stdio: 'inherit' });
  const exited = exitOf(child);
  let code: number | null = null;
  void exited.then((c) => (code = c));
  // While a switch is pending: watch for its health, and for the deadline.
  while (code === null) {
    const pending = releases.readState().pending;
    if (pending && !confirmIfHealthy() && Date.now() - Date.parse(pending.switchedAt) > config.updateHealthySeconds * 1000) {
      logger.warn({ version: pending.version }, `no healthy upload within ${config.updateHealthySeconds} s: stopping it`);
      child.kill('SIGTERM');
      await exited;
      rollBack(releases.readState(), `no successful upload within ${config.updateHealthySeconds} s`);
      break;
    }
    await Promise.race([exited, wait(pending ? 500 : 5000)]);
  }
  const exitCode = await exited;
  child = null;
  if (stopSignal) {
    await flushLogger(logger);
    process.exit(exitCode);
  }
  if (exitCode === 0) break;
  if (exitCode === EXIT_FOR_UPDATE) {
    crashes = 0;
    continue;
  }
  crashes += 1;
  logger.warn({ exitCode }, 'the daemon exited; starting it again');
  await wait(Math.min(30_000, 500 * 2 ** Math.min(crashes, 6)));
}
await flushLogger(logger);
