import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../gateway/api-client';

// The gateway keeps its connection alive between batches; a web process that stops (a rolling
// restart) closes the idle ones, and a batch sent as that happens meets a reset connection.
let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Answers readings posts; the second request on a connection is cut (the connection reset) before any answer. */
async function serverCuttingReusedConnections(): Promise<{ base: string; requests: () => number; connections: () => number }> {
  let requests = 0;
  let connections = 0;
  const perSocket = new WeakMap<object, number>();
  server = http.createServer((req, res) => {
    requests += 1;
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    if (n > 1) return req.socket.resetAndDestroy();
    req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ accepted: 1, duplicates: 0, rejected: [] })));
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests, connections: () => connections };
}

const reading = { serial_no: 'AA:BB:CC:DD:EE:01', measured_at: '20261128060000000', temperature: 4.5, error: false, battery: 90, receive_sensitivity: -60 };

describe('the gateway API client', () => {
  it('sends a batch again on a new connection when its kept-alive connection is reset before any answer', async () => {
    const target = await serverCuttingReusedConnections();
    const client = new ApiClient({ server: target.base, token: 'token', timeoutMs: 5000 });
    expect((await client.postReadings([reading], false)).ok).toBe(true);
    const second = await client.postReadings([reading], false);
    expect(second.ok).toBe(true);
    // The reused connection was reset, the batch went again on a second one.
    expect(target.requests()).toBe(3);
    expect(target.connections()).toBe(2);
  });

  it('does not try a third time: a reset on the new connection too is the upload failing', async () => {
    let requests = 0;
    server = http.createServer((req) => {
      requests += 1;
      req.socket.resetAndDestroy();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const client = new ApiClient({ server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 'token', timeoutMs: 5000 });
    const result = await client.postReadings([reading], false);
    expect(result.ok).toBe(false);
    expect(requests).toBe(1);
  });
});
