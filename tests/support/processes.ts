import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { WORKER_NODE_FLAGS } from '../../app/jobs/worker-flags';

export interface WorkerProcess extends ChildProcess {
  /** Resolves when the worker has scheduled its jobs (its "worker started" log line). */
  started: Promise<void>;
}

/** The worker process (scripts/worker.ts) of a lane (all jobs by default) against the given database and SMTP server. */
export function startWorker(env: Record<string, string>, lane: 'all' | 'alerts' | 'reports' = 'all'): WorkerProcess {
  const child = spawn(process.execPath, [...WORKER_NODE_FLAGS[lane], '--import', 'tsx', path.resolve('scripts/worker.ts'), lane], {
    // Info, for its start line; its log is read here, not shown.
    env: { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const started = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => line.includes('"worker started"') && resolve());
    child.once('exit', (code, signal) => reject(new Error(`the worker exited (${signal ?? code}) before it started`)));
  });
  // A caller that does not wait for the start must not see an unhandled rejection when it kills the worker.
  started.catch(() => undefined);
  return Object.assign(child, { started });
}

/** Stops a child with `signal`, and with SIGKILL if it is still there 5 s later. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The kinds of process npm start supervises (scripts/start.ts), by what their command line runs. */
export type ConsoleProcessKind = 'web' | 'alerts' | 'reports';

const KIND_PATTERNS: Record<ConsoleProcessKind, RegExp> = {
  web: /scripts\/server\.ts/,
  alerts: /scripts\/worker\.ts alerts$/,
  reports: /scripts\/worker\.ts reports$/,
};

/** The direct children of `parent` (npm start) of each kind, by pid. */
export function consoleProcesses(parent: number): Record<ConsoleProcessKind, number[]> {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const children = out
    .trim()
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/)!)
    .filter((match) => Number(match[2]) === parent)
    .map((match) => ({ pid: Number(match[1]), args: match[3].trim() }));
  const of = (kind: ConsoleProcessKind) => children.filter((child) => KIND_PATTERNS[kind].test(child.args)).map((child) => child.pid);
  return { web: of('web'), alerts: of('alerts'), reports: of('reports') };
}

/**
 * Kills one process of `kind` under npm start (`parent`) with SIGKILL and returns how long until
 * it was back: a new process of the kind, and the console's own check of it passing (`back`: the
 * web server answering /healthz from a new pid, a worker's lane beating again in /readyz). Throws
 * after `timeoutMs`.
 */
export async function killAndTimeBack(parent: number, kind: ConsoleProcessKind, back: (pid: number) => Promise<boolean>, timeoutMs = 10_000): Promise<{ killed: number; replacement: number; backMs: number }> {
  const [killed] = consoleProcesses(parent)[kind];
  if (killed === undefined) throw new Error(`no ${kind} process under ${parent}`);
  const killedAt = performance.now();
  process.kill(killed, 'SIGKILL');
  let replacement = 0;
  await waitUntil(async () => {
    replacement = consoleProcesses(parent)[kind].find((pid) => pid !== killed) ?? 0;
    return replacement !== 0 && (await back(replacement).catch(() => false));
  }, timeoutMs, `the ${kind} process back after kill -9`);
  return { killed, replacement, backMs: performance.now() - killedAt };
}
