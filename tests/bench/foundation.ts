// Figures for the foundation: start-up time, JS shipped, token latency.
//   npx tsx tests/bench/foundation.ts
// Starts `npm start` on an empty data folder (build included), measures the seconds to the
// first 200 from /login, the gzipped JS of /login and /dashboard, and POST /on-reco/token
// p50/p95 over 40 sequential logins; then stops the console.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEMO_DEFAULT_PASSWORD } from '../../app/domain/demo';

const port = 43000 + Math.floor(Math.random() * 1000);
const base = `http://localhost:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'onreco-bench-'));
// mkdtemp makes the folder 0700; as root, the embedded PostgreSQL runs as its own user and must enter it.
chmodSync(dataDir, 0o755);

async function main() {
  rmSync('build', { recursive: true, force: true });
  rmSync('public/build', { recursive: true, force: true });
  const started = performance.now();
  const app = spawn('npm', ['start'], {
    env: { ...process.env, DATABASE_URL: '', PORT: String(port), ONRECO_DATA_DIR: dataDir, ONRECO_EMBEDDED_PG_PORT: String(port + 1), ONRECO_DEMO_DAYS: process.env.ONRECO_DEMO_DAYS ?? '7', ONRECO_SIMULATOR: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  delete process.env.DATABASE_URL;
  try {
    let exited = false;
    app.once('exit', () => (exited = true));
    while (!(await fetch(`${base}/login`).then((r) => r.ok).catch(() => false))) {
      if (exited) throw new Error('npm start stopped before serving /login (its log is above)');
      await new Promise((r) => setTimeout(r, 200));
    }
    const startSeconds = (performance.now() - started) / 1000;
    const cookie = await loginCookie();
    const loginJs = await shippedJs('/login', '');
    const dashboardJs = await shippedJs('/dashboard', cookie);
    const latencies: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const t = performance.now();
      const response = await fetch(`${base}/on-reco/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: DEMO_DEFAULT_PASSWORD }) });
      if (!response.ok) throw new Error(`token ${response.status}`);
      latencies.push(performance.now() - t);
    }
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
    console.log(JSON.stringify({
      machine: `${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.cpus()[0]?.model}`,
      demo_days: Number(process.env.ONRECO_DEMO_DAYS ?? 7),
      start_to_first_login_200_s: Number(startSeconds.toFixed(1)),
      gzipped_js_login_kb: Number((loginJs / 1024).toFixed(1)),
      gzipped_js_dashboard_kb: Number((dashboardJs / 1024).toFixed(1)),
      token_p50_ms: Number(pct(0.5)),
      token_p95_ms: Number(pct(0.95)),
    }, null, 2));
  } finally {
    if (app.exitCode === null) {
      process.kill(-app.pid!, 'SIGINT');
      await new Promise((resolve) => app.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function loginCookie(): Promise<string> {
  const response = await fetch(`${base}/login`, { method: 'POST', body: new URLSearchParams({ username: 'admin', password: DEMO_DEFAULT_PASSWORD }), redirect: 'manual' });
  return response.headers.get('set-cookie')!.split(';')[0];
}

/** The gzipped bytes of every script a first load of the page fetches (entry, route chunks, modulepreloads). */
async function shippedJs(pagePath: string, cookie: string): Promise<number> {
  const html = await fetch(base + pagePath, { headers: { Cookie: cookie } }).then((r) => r.text());
  const sources = new Set([...html.matchAll(/(?:src|href)="(\/build\/[^"]+\.js)"/g)].map((m) => m[1]));
  for (const m of html.matchAll(/import\("(\/build\/[^"]+\.js)"\)/g)) sources.add(m[1]);
  let total = 0;
  for (const source of sources) total += gzipSync(Buffer.from(await fetch(base + source).then((r) => r.text()))).length;
  return total;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
