import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_USER } from '../../app/http/sse.server';
import { DEFAULT_LOAD_LIMITS } from '../../app/http/server/web-server.server';
import { TEST_PASSWORD, createUser } from '../fixtures/chain';
import { serveConsole } from '../support/console';
import { resetDb, testDb } from '../support/db';

// Slow and abusive clients, and the client address behind a proxy (issue 24 part 3 and 4;
// docs/decisions/213-slow-clients-and-proxies.md), over real HTTP against scripts/server.ts.

const db = testDb();
const logs: string[] = [];
let direct: Awaited<ReturnType<typeof serveConsole>>;
let proxied: Awaited<ReturnType<typeof serveConsole>>;
const sockets: Socket[] = [];

beforeAll(async () => {
  await resetDb();
  await createUser(db, 'admin', 1);
  [direct, proxied] = await Promise.all([serveConsole(process.env.DATABASE_URL!, { LOG_LEVEL: 'info' }, logs), serveConsole(process.env.DATABASE_URL!, { TRUST_PROXY: 'loopback' })]);
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all([direct?.stop(), proxied?.stop()]);
});

/** A connection from `localAddress` that sends a POST's head and `sent` bytes of a `length`-byte body, then nothing; resolves with the first answer's status (0 if it closes without one). */
function slowBody(base: string, localAddress: string, path: string, length = 1000, sent = 10): { socket: Socket; status: Promise<number> } {
  const { hostname, port } = new URL(base);
  const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress });
  sockets.push(socket);
  socket.on('connect', () => socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n${'x'.repeat(sent)}`));
  const status = new Promise<number>((resolve) => {
    socket.once('data', (chunk) => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0)));
    socket.once('close', () => resolve(0));
    socket.once('error', () => resolve(0));
  });
  return { socket, status };
}

const settled = <T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> => Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);

async function token(base: string, headers: Record<string, string> = {}, username = 'admin', password = TEST_PASSWORD): Promise<Response> {
  return fetch(`${base}/on-reco/token`, { method: 'POST', headers, body: new URLSearchParams({ grant_type: 'password', username, password }) });
}

describe('unfinished bodies', () => {
  it('do not count as work in flight: more of them than the in-flight limit leave sign-in to others', async () => {
    // 5 addresses, each at its cap of unfinished bodies: 80, past the 64 requests in flight.
    const cap = DEFAULT_LOAD_LIMITS.maxUnfinishedBodiesPerAddress;
    const held = [2, 3, 4, 5, 6].flatMap((n) => Array.from({ length: cap }, () => slowBody(direct.base, `127.0.0.${n}`, '/on-reco/token')));
    expect(held.length).toBeGreaterThan(DEFAULT_LOAD_LIMITS.maxInFlight);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const { status } of held) expect(await settled(status, 0)).toBe('pending');
    const answers = await Promise.all(Array.from({ length: 10 }, () => token(direct.base)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    for (const { socket } of held) socket.destroy();
  });

  it('are capped per address: past the cap a body is refused with 429 and Retry-After after 5–10 s, others unaffected', async () => {
    const cap = DEFAULT_LOAD_LIMITS.maxUnfinishedBodiesPerAddress;
    const held = Array.from({ length: cap }, () => slowBody(direct.base, '127.0.0.7', '/login'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const over = slowBody(direct.base, '127.0.0.7', '/login');
    const refusedAt = Date.now();
    // Not at once: a flood reconnecting at once would come in bursts (decision 213).
    expect(await settled(over.status, 4000)).toBe('pending');
    expect(await settled(over.status, 11_000)).toBe(429);
    // 10 s at most, with room for a loaded machine's timers.
    expect(Date.now() - refusedAt).toBeLessThan(15_000);
    // Logged as a count per address, not a line per refusal.
    expect(logs.filter((line) => line.includes('request bodies refused') && line.includes('127.0.0.7'))).toHaveLength(1);
    expect(await settled(held[0].status, 0)).toBe('pending');
    expect(await settled(slowBody(direct.base, '127.0.0.8', '/login').status, 500)).toBe('pending');
    expect((await token(direct.base)).status).toBe(200);
    for (const { socket } of held) socket.destroy();
  }, 30_000);

  it('is given up when the head does not arrive in time (408, the connection closed)', async () => {
    const { hostname, port } = new URL(direct.base);
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET /login HTTP/1.1\r\nHost: ${hostname}\r\n`));
    sockets.push(socket);
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.once('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    // 15 s, checked every 5 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(14_000);
    expect(Date.now() - started).toBeLessThan(25_000);
  }, 40_000);
});

describe('live-update streams', () => {
  it(`are at most ${MAX_STREAMS_PER_USER} per user: the next is 429 with Retry-After until one closes`, async () => {
    const login = await fetch(`${direct.base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Origin: direct.base, 'Sec-Fetch-Site': 'same-origin' },
      body: new URLSearchParams({ username: 'admin', password: TEST_PASSWORD }),
    });
    const cookie = login.headers.get('Set-Cookie')!.split(';')[0];
    const open = () => {
      const controller = new AbortController();
      return fetch(`${direct.base}/resources/events`, { headers: { Cookie: cookie }, signal: controller.signal }).then((response) => ({ response, close: () => controller.abort() }));
    };
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await open());
    expect(streams.map((stream) => stream.response.status)).toEqual(Array(MAX_STREAMS_PER_USER).fill(200));
    const refused = await open();
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get('Retry-After'))).toBeGreaterThan(0);
    streams.pop()!.close();
    await expect.poll(async () => {
      const again = await open();
      again.close();
      return again.response.status;
    }).toBe(200);
    for (const stream of streams) stream.close();
  });
});

describe('TRUST_PROXY', () => {
  it('makes the sign-in limits count the forwarded address: one address spraying ids waits, the next signs in', async () => {
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    for (let i = 0; i < 50; i++) expect((await token(proxied.base, from('203.0.113.9'), `nobody${i}`, 'x')).status).toBe(400);
    const refused = await token(proxied.base, from('203.0.113.9'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await token(proxied.base, from('198.51.100.7'))).status).toBe(200);
  });

  it('is off by default: a forwarded address is not believed, the log names the socket\'s', async () => {
    await token(direct.base, { 'X-Forwarded-For': '203.0.113.77' });
    await expect.poll(() => logs.some((line) => line.includes('"path":"/on-reco/token"'))).toBe(true);
    const lines = logs.filter((line) => line.includes('"path":"/on-reco/token"')).map((line) => JSON.parse(line)).filter((line) => line.status === 200);
    expect(lines.every((line) => /127\.0\.0\.1$/.test(line.address))).toBe(true);
    expect(logs.join('\n')).not.toContain('203.0.113.77');
  });
});
