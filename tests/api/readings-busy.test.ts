import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCompactDateTime } from '~/domain/japan-time';
import { createSensor, createStore, issuePin } from '../fixtures/chain';
import { serveConsole } from '../support/console';
import { resetDb, testDb } from '../support/db';
import { pairOverApi } from '../support/gateway-api';
import { waitUntil } from '../support/processes';

// Issue 10: the readings call answered 429 (its in-flight limit) before reading the body, so a
// Node client still sending a large batch saw the connection reset instead of the 429. Over real
// HTTP, through our web server (scripts/server.ts), with the limit at 1.

const db = testDb();
let server: Awaited<ReturnType<typeof serveConsole>>;
let token: string;

beforeAll(async () => {
  await resetDb();
  await createStore(db, 'S001');
  await createSensor(db, 'S001', 'AA:BB:CC:00:00:01');
  const pin = await issuePin(db, 'S001');
  server = await serveConsole(process.env.DATABASE_URL!, { READINGS_MAX_IN_FLIGHT: '1' });
  token = await pairOverApi(server.base, 'S001', pin);
}, 300_000);
afterAll(() => server?.stop());

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/** Posts a batch with node's http, as the gateway's uploader does; resolves with the answer or rejects with the socket's error (ECONNRESET, EPIPE). */
function post(body: Buffer, headers: Record<string, string> = {}, agent?: http.Agent): { answer: Promise<Answer>; request: http.ClientRequest } {
  const url = new URL(`${server.base}/on-reco/v1/gateway/readings`);
  const request = http.request(url, {
    method: 'POST',
    agent,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': String(body.length), ...headers },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () => resolve({ status: response.statusCode!, retryAfter: response.headers['retry-after'], body: Buffer.concat(chunks).toString() }));
    });
  });
  return { answer, request };
}

describe('POST /v1/gateway/readings past its in-flight limit', () => {
  it('reads a large gzip batch to its end and answers 429 with Retry-After: the client sees the status, and its connection serves the next batch at once', { timeout: 60_000 }, async () => {
    // The one slot is held by a batch whose body is still coming.
    const reading = (temperature: number) =>
      JSON.stringify({ readings: [{ serial_no: 'AA:BB:CC:00:00:01', measured_at: toCompactDateTime(new Date(Date.now() - 60_000)), temperature, error: false, battery: 90, receive_sensitivity: -60 }] });
    const held = reading(5);
    // The slot is taken once a small batch is refused as busy. A probe that the server took first
    // holds the slot itself, and the holder that came meanwhile is refused and waits for its body's
    // end: that holder is let go and a new one sent.
    const holdSlot = () => {
      const holder = post(Buffer.from(held));
      holder.request.write(held.slice(0, 10));
      return holder;
    };
    let holder = holdSlot();
    await waitUntil(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const body = reading(5);
        const probe = post(Buffer.from(body));
        probe.request.end(body);
        const answer = await probe.answer;
        if (answer.status === 429 && (JSON.parse(answer.body) as { error?: string }).error === 'busy') return true;
        holder.answer.catch(() => undefined);
        holder.request.destroy();
        holder = holdSlot();
        return false;
      },
      20_000,
      'a held batch to take the one slot',
    );

    // About 7.6 MB of gzip that does not compress, sent while the slot is taken, on a kept-alive connection.
    const large = gzipSync(JSON.stringify({ readings: [], padding: randomBytes(3.8 * 1024 * 1024).toString('hex') }));
    const gateway = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const busy = post(large, { 'Content-Encoding': 'gzip' }, gateway);
    const socketErrors: string[] = [];
    busy.request.on('error', (error: NodeJS.ErrnoException) => socketErrors.push(error.code ?? error.message));
    busy.request.end(large);
    const answer = await busy.answer;
    expect(answer.status).toBe(429);
    expect(answer.retryAfter).toMatch(/^\d+$/);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'busy', error_description: expect.any(String) });

    holder.request.end(held.slice(10));
    expect((await holder.answer).status).toBe(200);
    // The next batch goes on the same connection: before, the refused body was left unread, the
    // connection hung until the server's timeout reset it (ECONNRESET on the refused request).
    const started = Date.now();
    const nextBody = reading(6);
    const next = post(Buffer.from(nextBody), {}, gateway);
    next.request.end(nextBody);
    expect((await next.answer).status).toBe(200);
    // Well before the server's keep-alive (65 s) would have reset a hung connection.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(socketErrors).toEqual([]);
    gateway.destroy();
  });
});
