// The readings call as the console's web server mounts it (issue 27 item 4, decisions 221/266):
// its answer carries none of the browser's headers, and the server keeps the gateway's
// connection past its 70 s idle hold. The route's action is a stand-in: the headers are the
// server's business, not the action's.
import type { AddressInfo } from 'node:net';
import type { ServerBuild } from '@remix-run/node';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEEP_ALIVE_IDLE_MS } from '../../../gateway/api-client';
import { jsonAnswer } from '~/http/json-answer.server';
import { createHttpServer, SERVER_TIMEOUTS } from '~/http/server/request-limits.server';
import { createWebServer } from '~/http/server/web-server.server';

const READINGS = 'routes/on-reco+/v1.gateway.readings';
const build = {
  routes: {
    root: { id: 'root', path: '', module: {} },
    [READINGS]: { id: READINGS, parentId: 'root', path: 'on-reco/v1/gateway/readings', module: { action: () => jsonAnswer({ accepted: 1, duplicates: 0, rejected: [] }) } },
  },
  publicPath: '/build/',
  assetsBuildDirectory: __dirname,
  entry: { module: {} },
  assets: { routes: {} },
  future: {},
} as unknown as ServerBuild;

describe('the readings answer', () => {
  const server = createHttpServer(createWebServer({ build, mode: 'production', publicUrl: 'https://console.example.jp', log: pino({ level: 'silent' }) }));
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // fetch keeps its connection: the very point of the test
      }),
  );

  it('carries no browser headers, and keeps the connection longer than the gateway holds it', async () => {
    const res = await fetch(`${base}/on-reco/v1/gateway/readings`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect([...res.headers.keys()].sort()).toEqual(['connection', 'content-length', 'content-type', 'date', 'keep-alive']);
    expect(res.headers.get('keep-alive')).toBe(`timeout=${SERVER_TIMEOUTS.keepAliveTimeoutMs / 1000}`);
    // Node's agent closes 1 s before the server's hint; the gateway's hold must end before that.
    expect(KEEP_ALIVE_IDLE_MS).toBeLessThan(SERVER_TIMEOUTS.keepAliveTimeoutMs - 1000);
    expect(KEEP_ALIVE_IDLE_MS).toBeGreaterThan(60_000); // the default cadence
  });

  it('while every other answer keeps them', async () => {
    const res = await fetch(`${base}/build/nothing-here.js`);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
  });
});
