import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { BODY_LIMITS } from '../../app/http/server/request-limits.server';
import { TEST_PASSWORD, createStore, createUser } from '../fixtures/chain';
import { serveConsole } from '../support/console';
import { prepareTestDatabase, type TestDatabase } from '../support/database';
import { type OwnConnectionOptions, requestOnOwnConnection } from '../support/connection-request';
import { freePort } from '../support/ports';
import { stopProcess, waitUntil } from '../support/processes';

// deploy/nginx/onreco.conf, as shipped, run by Debian's nginx in front of a console with
// TRUST_PROXY=127.0.0.1, nginx's address (issue 24 part 4; docs/decisions/213-slow-clients-and-proxies.md): only its
// ports, certificate and upstream address are replaced. Over TLS: sign-in, a live-update stream
// that carries an event as it happens, a 429 with its Retry-After, and the limits counting the
// client's address as nginx forwarded it, not nginx's own nor one the client claims.

const NGINX = '/usr/sbin/nginx';
const missing = !existsSync(NGINX);
if (missing) console.warn(`tests/e2e/nginx.test.ts skipped: ${NGINX} is missing (apt-get install nginx)`);

let database: TestDatabase;
let db: Db;
let console_: Awaited<ReturnType<typeof serveConsole>> | undefined;
let nginx: ChildProcess | undefined;
let dir: string;
let ca: string;
let base: string;
const serverLog: string[] = [];

/** The shipped config with this run's ports, certificate and console; each replaced line must be there. */
function configFor(consolePort: number, httpsPort: number, httpPort: number): string {
  let text = readFileSync('deploy/nginx/onreco.conf', 'utf8');
  const replace = (from: string | RegExp, to: string) => {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`deploy/nginx/onreco.conf no longer has ${from}`);
    text = next;
  };
  replace('server 127.0.0.1:3000;', `server 127.0.0.1:${consolePort};`);
  replace(/listen 80;\n\s*listen \[::\]:80;/, `listen 127.0.0.1:${httpPort};`);
  replace(/listen 443 ssl http2;\n\s*listen \[::\]:443 ssl http2;/, `listen 127.0.0.1:${httpsPort} ssl http2;`);
  replace('/etc/ssl/onreco/fullchain.pem', path.join(dir, 'cert.pem'));
  replace('/etc/ssl/onreco/privkey.pem', path.join(dir, 'key.pem'));
  return text;
}

/** A request over TLS to nginx from `localAddress` (127.0.0.1 unless told). */
const call = (pathname: string, options: Omit<OwnConnectionOptions, 'ca'> = {}) => requestOnOwnConnection(`${base}${pathname}`, { ...options, ca });

const tokenForm = (username: string, password: string) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
});

beforeAll(async () => {
  if (missing) return;
  dir = mkdtempSync(path.join(tmpdir(), 'onreco-nginx-'));
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, temp));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
  ca = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  database = await prepareTestDatabase('onreco_nginx');
  db = createDb(database.url, 2);
  await migrateToLatest(db);
  await createStore(db, 'NGX01', { store_name: 'プロキシ店' });
  await createUser(db, 'proxied', 1);
  const [consolePort, httpsPort, httpPort] = [await freePort(), await freePort(), await freePort()];
  base = `https://localhost:${httpsPort}`;
  console_ = await serveConsole(database.url, { PORT: String(consolePort), TRUST_PROXY: '127.0.0.1', ONRECO_PUBLIC_URL: base, LOG_LEVEL: 'warn' }, serverLog);
  const site = path.join(dir, 'onreco.conf');
  writeFileSync(site, configFor(consolePort, httpsPort, httpPort));
  const temp = (name: string) => path.join(dir, name);
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `daemon off;\nworker_processes 1;\npid ${temp('nginx.pid')};\nerror_log ${temp('error.log')} warn;\nevents { worker_connections 512; }\n` +
      `http {\n  access_log off;\n  client_body_temp_path ${temp('body')};\n  proxy_temp_path ${temp('proxy')};\n  fastcgi_temp_path ${temp('fastcgi')};\n  uwsgi_temp_path ${temp('uwsgi')};\n  scgi_temp_path ${temp('scgi')};\n  include ${site};\n}\n`,
  );
  nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', temp('error.log')], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitUntil(async () => (await call('/login').then((answer) => answer.status === 200, () => false)), 30_000, 'nginx in front of the console');
}, 180_000);

afterAll(async () => {
  if (nginx) await stopProcess(nginx, 'SIGQUIT');
  await console_?.stop();
  await db?.destroy();
  await database?.release();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(missing)('the console behind deploy/nginx/onreco.conf', () => {
  it('takes bodies up to the console\'s largest limit, no more', () => {
    const size = /client_max_body_size (\d+)m;/.exec(readFileSync('deploy/nginx/onreco.conf', 'utf8'))?.[1];
    expect(Number(size) * 1024 * 1024).toBe(Math.max(...Object.values(BODY_LIMITS)));
  });

  it('signs in over TLS (the API\'s token and the console\'s form), with HSTS on the answer', async () => {
    expect((await call('/on-reco/token', tokenForm('proxied', TEST_PASSWORD))).status).toBe(200);
    const login = await call('/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base, 'Sec-Fetch-Site': 'same-origin' },
      body: new URLSearchParams({ username: 'proxied', password: TEST_PASSWORD }).toString(),
    });
    expect(login.status, serverLog.join('\n')).toBe(302);
    expect(login.headers['strict-transport-security']).toBeDefined();
  });

  it('streams live updates through as they happen, unbuffered', async () => {
    const login = await call('/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base, 'Sec-Fetch-Site': 'same-origin' },
      body: new URLSearchParams({ username: 'proxied', password: TEST_PASSWORD }).toString(),
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    let text = '';
    const stream = await new Promise<import('node:http').ClientRequest>((resolve, reject) => {
      const req = https.get(`${base}/resources/events`, { headers: { Cookie: cookie }, ca, agent: false }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`event stream: ${res.statusCode}`));
        expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', () => undefined);
        resolve(req);
      });
      req.on('error', reject);
    });
    try {
      // The first few bytes, and then one event, each reach the client on their own: nginx buffering
      // them would hold both back until a buffer filled or the stream ended.
      await waitUntil(async () => text.includes('retry: 5000'), 5000, 'the stream\'s first line through nginx');
      expect(text).not.toContain('event: change');
      await sql`select pg_notify('onreco_store', 'NGX01')`.execute(db);
      await waitUntil(async () => text.includes('event: change') && text.includes('"store_id":"NGX01"'), 10_000, 'the change event through nginx');
    } finally {
      stream.destroy();
    }
  });

  it('counts sign-in failures by the forwarded client address: a 429 with Retry-After passes through, another client still signs in', async () => {
    // 50 failures from 127.0.0.2, each claiming another address in X-Forwarded-For: nginx appends the
    // real one, and that is the one the console counts.
    for (let i = 0; i < 50; i++) {
      const answer = await call('/on-reco/token', { ...tokenForm(`nobody${i}`, 'wrong'), localAddress: '127.0.0.2', headers: { ...tokenForm('', '').headers, 'X-Forwarded-For': `198.51.100.${i}` } });
      expect(answer.status).toBe(400);
    }
    const refused = await call('/on-reco/token', { ...tokenForm('proxied', TEST_PASSWORD), localAddress: '127.0.0.2' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body).error).toBe('too_many_attempts');
    // Another client, through the same nginx (so the same socket address at the console), is not held back.
    expect((await call('/on-reco/token', { ...tokenForm('proxied', TEST_PASSWORD), localAddress: '127.0.0.3' })).status).toBe(200);
  });
});
