import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopProcess } from './processes';

// Shared by the benchmarks: a production build of the console served on a free port.

export function machine(): string {
  return `${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.cpus()[0]?.model ?? 'unknown CPU'}`;
}

export function ensureBuild(): void {
  if (existsSync('build/index.js')) return;
  const { status } = spawnSync(path.resolve('node_modules/.bin/remix'), ['build'], { stdio: 'inherit' });
  if (status !== 0) throw new Error('remix build failed');
}

export async function serveConsole(databaseUrl: string, env: Record<string, string> = {}): Promise<{ base: string; stop(): Promise<void>; process: ChildProcess }> {
  ensureBuild();
  const port = 44000 + Math.floor(Math.random() * 4000);
  const child = spawn(process.execPath, [path.resolve('node_modules/@remix-run/serve/dist/cli.js'), 'build/index.js'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATABASE_URL: databaseUrl, SESSION_SECRET: 'bench-session-secret-0123456789', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
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
