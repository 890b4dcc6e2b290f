import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { WORKER_NODE_FLAGS } from '../../app/jobs/worker-flags';

/** The worker process (scripts/worker.ts) of a lane (all jobs by default) against the given database and SMTP server. */
export function startWorker(env: Record<string, string>, lane: 'all' | 'alerts' | 'reports' = 'all'): ChildProcess {
  return spawn(process.execPath, [...WORKER_NODE_FLAGS[lane], '--import', 'tsx', path.resolve('scripts/worker.ts'), lane], {
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
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
