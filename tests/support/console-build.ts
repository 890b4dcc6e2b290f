import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The production build of the console that the tests serve (the api project's simulator test,
// the e2e project, the benches). It is the tests' own: built into .cache/test-console, never into
// the build/ of `npm start`; rebuilt whenever a source changed; and built once for every project
// of a run, whichever starts first (the others wait on the lock), so no test depends on another's
// build or on the order the projects run in.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Relative to the root: the web server, run from the root, serves the assets from there. */
export const CONSOLE_BUILD_DIR = '.cache/test-console';
const SOURCES = ['app', 'gateway/protocol.ts', 'remix.config.js', 'tailwind.config.ts', 'postcss.config.js', 'tsconfig.json', 'package-lock.json'];
const STAMP = path.join(ROOT, CONSOLE_BUILD_DIR, 'sources.sha256');
const LOCK = path.join(ROOT, `${CONSOLE_BUILD_DIR}.lock`);
const LOCK_WAIT_MS = 10 * 60_000;

/** The server build to hand to scripts/server.ts (absolute path). */
export const CONSOLE_SERVER_BUILD = path.join(ROOT, CONSOLE_BUILD_DIR, 'build/index.js');

/** Builds the console unless the build on disk was made from the sources as they are now. */
export async function ensureConsoleBuild(): Promise<string> {
  await withLock(async () => {
    const hash = sourcesHash();
    if (existsSync(CONSOLE_SERVER_BUILD) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash) return;
    rmSync(path.join(ROOT, CONSOLE_BUILD_DIR), { recursive: true, force: true });
    const started = performance.now();
    // vitest sets NODE_ENV=test, under which remix builds a dev React (jsxDEV) that the
    // production server cannot run: the build is a production one, like the server serving it.
    const build = spawn(path.join(ROOT, 'node_modules/.bin/remix'), ['build'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production', ONRECO_BUILD_DIR: CONSOLE_BUILD_DIR },
    });
    const code = await new Promise<number | null>((resolve, reject) => build.once('error', reject).once('close', resolve));
    if (code !== 0) throw new Error(`remix build failed (exit ${code})`);
    writeFileSync(STAMP, hash);
    console.log(`[console build] built into ${CONSOLE_BUILD_DIR} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
  return CONSOLE_SERVER_BUILD;
}

/** A hash of every source file the build reads (paths and contents). */
export function sourcesHash(): string {
  const hash = createHash('sha256');
  const add = (relative: string) => {
    const full = path.join(ROOT, relative);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) add(path.join(relative, name));
      return;
    }
    hash.update(relative).update('\0').update(readFileSync(full)).update('\0');
  };
  for (const source of SOURCES) add(source);
  return hash.digest('hex');
}

/** Runs `work` holding a lock directory shared by every process of this checkout. */
async function withLock(work: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!holderAlive()) {
        rmSync(LOCK, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`waited ${LOCK_WAIT_MS / 60_000} min for the console build lock ${LOCK}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
    await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Whether the process that holds the lock is still running (a killed run leaves its lock behind). */
function holderAlive(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(LOCK, 'pid'), 'utf8'));
  } catch {
    // Taken an instant ago, its pid not written yet: alive, unless the lock is old.
    try {
      return Date.now() - statSync(LOCK).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
