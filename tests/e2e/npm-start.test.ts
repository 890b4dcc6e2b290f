// `npm start` (scripts/start.ts) on its embedded PostgreSQL stops in order: the web server, the
// worker and the demo simulator first, PostgreSQL last, and nothing is left running, whether the
// signal reaches it alone (`kill PID`, a service manager) or its whole process group (Ctrl-C).
// Each child goes by itself, before start.ts would kill it (10 s), even with a screen's event
// stream open; the web server within Remix's 5-s render timers of the last page.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_DEFAULT_PASSWORD } from '../../app/domain/demo';
import { freePort } from '../support/ports';
import { waitUntil } from '../support/processes';

const dataDir = mkdtempSync(path.join(tmpdir(), 'onreco-start-'));
// As root the embedded PostgreSQL runs as its own user, which must enter the folder.
chmodSync(dataDir, 0o755);

const started: ChildProcess[] = [];

/**
 * Each start's ports, as the system hands them out: the suite's other projects run beside this one,
 * and a port drawn at random from a range was once taken by another test's server (EADDRINUSE).
 */
interface Ports {
  webPort: number;
  pgPort: number;
}

afterAll(() => {
  // A test that failed half-way leaves nothing running: its whole process group goes.
  for (const start of started) {
    try {
      process.kill(-start.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

function npmStart({ webPort, pgPort }: Ports, extra: Record<string, string> = {}): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', PORT: String(webPort), ONRECO_EMBEDDED_PG_PORT: String(pgPort), ONRECO_DATA_DIR: dataDir, ONRECO_DEMO_DAYS: '0', LOG_LEVEL: 'warn', ...extra };
  delete env.DATABASE_URL;
  // Its own process group, as a terminal would start it.
  const start = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  // Its log (warnings and errors at this level), to name a child it had to kill.
  logs.set(start, '');
  start.stdout!.setEncoding('utf8').on('data', (chunk: string) => logs.set(start, logs.get(start) + chunk));
  started.push(start);
  return start;
}

const logs = new Map<ChildProcess, string>();

/** The children npm start killed because they had not stopped 10 s after it told them (its warning). */
const forceKilled = (start: ChildProcess) =>
  logs.get(start)!.split('\n').filter((line) => line.includes('did not stop within'));

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** Every process below `pid`. */
function descendants(pid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const rows = out.trim().split('\n').map((line) => line.trim().split(/\s+/).map(Number));
  const below = (parent: number): number[] => rows.filter(([, ppid]) => ppid === parent).flatMap(([child]) => [child, ...below(child)]);
  return below(pid);
}

/** The command lines of those of `pids` still running (a zombie waiting for its reaper is gone). */
function survivors(pids: number[]): string[] {
  return pids.flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return [];
      return [`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`];
    } catch {
      return [];
    }
  });
}

/** The dashboard's event stream, open as a screen holds it. */
async function openEventStream(base: string) {
  const login = await fetch(`${base}/login`, { method: 'POST', body: new URLSearchParams({ username: 'admin', password: DEMO_DEFAULT_PASSWORD }), redirect: 'manual' });
  const cookie = login.headers.get('set-cookie')!.split(';')[0];
  const events = await fetch(`${base}/resources/events`, { headers: { Cookie: cookie } });
  expect(events.headers.get('content-type')).toContain('text/event-stream');
  const reader = events.body!.getReader();
  await reader.read();
  // Read on, as a browser does, until the server ends the stream or the connection is cut.
  const readToEnd = async () => {
    while (!(await reader.read()).done);
  };
  return { ended: readToEnd().then(() => 'ended', () => 'ended') };
}

async function startAndStop(send: (start: ChildProcess) => void, env: Record<string, string> = {}, least = 5) {
  const webPort = await freePort();
  let pgPort = await freePort();
  while (pgPort === webPort) pgPort = await freePort();
  const start = npmStart({ webPort, pgPort }, env);
  const exited = new Promise<number | null>((resolve) => start.once('exit', (code) => resolve(code)));
  const base = `http://localhost:${webPort}`;
  // The first start builds the console (a fresh clone has no build/) and seeds the demo chain.
  // One that stopped (a child that could not start) says so at once rather than at the deadline.
  const serving = async () => {
    if (start.exitCode !== null) throw new Error(`npm start exited with ${start.exitCode} before it served /login`);
    return fetch(`${base}/login`).then((r) => r.ok, () => false);
  };
  await waitUntil(serving, 240_000, 'npm start to serve /login');
  const stream = await openEventStream(base);
  // The web server, the worker, the simulator and PostgreSQL with its own processes.
  const processes = descendants(start.pid!);
  expect(processes.length).toBeGreaterThanOrEqual(least);
  const stoppedAt = Date.now();
  send(start);
  expect(await exited).toBe(0);
  const stopMs = Date.now() - stoppedAt;
  expect(forceKilled(start), 'children npm start had to kill').toEqual([]);
  expect(stopMs, `npm start stopped ${stopMs} ms after the signal (bound 9000 ms)`).toBeLessThan(9_000);
  expect(await stream.ended).toBe('ended');
  // tsx's esbuild service notices its parent's exit a moment later (seconds on a loaded machine:
  // CI once found one still there after 5 s, beside three other test projects on 2 cores).
  await expect.poll(() => survivors(processes), { timeout: 15_000, message: 'processes of npm start still running after it exited' }).toEqual([]);
  expect(await listening(webPort)).toBe(false);
  expect(await listening(pgPort)).toBe(false);
  expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
}

describe('npm start, stopped', () => {
  it('by SIGTERM to it alone: stops its children, then PostgreSQL, and exits 0', async () => {
    await startAndStop((start) => start.kill('SIGTERM'));
  }, 300_000);

  it('by Ctrl-C to its process group (PostgreSQL stops by itself too): exits 0 with nothing left', async () => {
    await startAndStop((start) => process.kill(-start.pid!, 'SIGINT'));
  }, 300_000);

  // Decision 184: the supervisor, its 3 web processes and 2 workers per lane stop as one did.
  const several = { WEB_CONCURRENCY: '3', WORKER_CONCURRENCY: '2' };
  it('with WEB_CONCURRENCY=3 and WORKER_CONCURRENCY=2, by SIGTERM to it alone', async () => {
    await startAndStop((start) => start.kill('SIGTERM'), several, 5 + 3 + 2);
  }, 300_000);

  it('with WEB_CONCURRENCY=3 and WORKER_CONCURRENCY=2, by Ctrl-C to its process group', async () => {
    await startAndStop((start) => process.kill(-start.pid!, 'SIGINT'), several, 5 + 3 + 2);
  }, 300_000);
});
