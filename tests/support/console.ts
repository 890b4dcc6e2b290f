import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ensureConsoleBuild } from './console-build';
import { stopProcess } from './processes';
import { freePort } from './ports';

// Shared by the benchmarks and the tests that run a console of their own: the tests' production
// build of the console (console-build.ts) served on a free port.

export function machine(): string {
  return `${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.cpus()[0]?.model ?? 'unknown CPU'}, load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}`;
}

/** `logs`: keep what the server writes to stdout (its pino lines) in this array; `nodeArgs`: flags for node (NODE_OPTIONS refuses some, such as --cpu-prof). */
export async function serveConsole(databaseUrl: string, env: Record<string, string> = {}, logs?: string[], nodeArgs: string[] = []): Promise<{ base: string; stop(): Promise<void>; process: ChildProcess }> {
  const build = await ensureConsoleBuild();
  // env.PORT: the same address again (a restart that clients already know).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.resolve('scripts/server.ts'), build], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATABASE_URL: databaseUrl, SESSION_SECRET: 'bench-session-secret-0123456789', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', logs ? 'pipe' : 'ignore', 'inherit'],
  });
  // Whole lines: a chunk of the pipe may end inside one.
  if (child.stdout && logs) createInterface({ input: child.stdout }).on('line', (line) => line && logs.push(line));
  const base = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${base}/login`).then((r) => r.ok).catch(() => false))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the console did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base,
    process: child,
    stop: () => stopProcess(child),
  };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}
