// Bytes a reading costs on the wire, TLS included (issue 27 item 4: at most 40 B at the default
// cadence): the gateway's own ApiClient posts a store's batch (20 sensors) once a minute to a
// loopback HTTPS server with a self-signed certificate made by openssl at run time, and the
// server counts every byte its TCP sockets read and wrote (TLS handshake, records, request,
// answer; IP/TCP headers not included). Two servers side by side, in one run:
//   before: the answer through the browser's security headers, Node's 5 s keep-alive (each upload
//           a new connection and handshake), as before decisions 221/266;
//   after:  the readings call as web-server.server.ts mounts it (lean-route.server.ts) on the
//           console's server timeouts (keep-alive 75 s), the gateway's keep-alive agent (70 s).
// The route's action is a stand-in that reads the batch and answers what the real one answers
// (jsonAnswer, same fields): the database is not what is measured.
//   npx tsx tests/bench/gateway-wire.ts            (UPLOADS=4 CADENCE_SECONDS=60 SENSORS=20)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ServerBuild } from '@remix-run/node';
import express from 'express';
import { leanAction } from '../../app/http/server/lean-route.server';
import { SERVER_TIMEOUTS } from '../../app/http/server/request-limits.server';
import { securityHeaders } from '../../app/http/server/security-headers.server';
import { jsonAnswer } from '../../app/http/json-answer.server';
import { ApiClient } from '../../gateway/api-client';
import type { WireReading } from '../../gateway/protocol';
import { formatMeasuredAt } from '../../gateway/time';

const UPLOADS = Number(process.env.UPLOADS ?? 4);
const CADENCE_MS = Number(process.env.CADENCE_SECONDS ?? 60) * 1000;
const SENSORS = Number(process.env.SENSORS ?? 20);
const TOKEN = 'x'.repeat(43); // a gateway token's length

// The gateway trusts the system's CAs only: run again with the self-signed certificate added.
if (!process.env.GATEWAY_WIRE_CERT_DIR) {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-wire-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, GATEWAY_WIRE_CERT_DIR: dir, NODE_EXTRA_CA_CERTS: path.join(dir, 'cert.pem') },
  });
  rmSync(dir, { recursive: true, force: true });
  process.exit(child.status ?? 1);
}
const certDir = process.env.GATEWAY_WIRE_CERT_DIR;
const tls = { key: readFileSync(path.join(certDir, 'key.pem')), cert: readFileSync(path.join(certDir, 'cert.pem')) };

/** The readings action's stand-in: reads the batch, answers as the real one does. */
async function action({ request }: { request: Request }): Promise<Response> {
  const body = Buffer.from(await request.arrayBuffer());
  const batch = JSON.parse((request.headers.get('content-encoding') === 'gzip' ? gunzipSync(body) : body).toString('utf8')) as { readings: unknown[] };
  return jsonAnswer({ accepted: batch.readings.length, duplicates: 0, rejected: [] });
}
const ROUTE = 'routes/on-reco+/v1.gateway.readings';
const build = { routes: { [ROUTE]: { module: { action } } } } as unknown as ServerBuild;
const context = () => ({});

interface Counted {
  server: https.Server;
  connections: number;
  bytes: () => number;
}

function counted(app: express.Express, keepAliveTimeout: number, timeouts: Partial<https.ServerOptions> = {}): Counted {
  const server = https.createServer({ ...tls, keepAliveTimeout, ...timeouts }, app);
  const sockets = new Set<Socket>();
  let closed = 0;
  const result: Counted = {
    server,
    connections: 0,
    bytes: () => closed + [...sockets].reduce((n, s) => n + s.bytesRead + s.bytesWritten, 0),
  };
  server.on('connection', (socket: Socket) => {
    result.connections += 1;
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closed += socket.bytesRead + socket.bytesWritten;
    });
  });
  return result;
}

const before = express();
before.disable('x-powered-by');
before.use(securityHeaders({ https: true }));
before.post('/on-reco/v1/gateway/readings', leanAction(build, ROUTE, context));

const after = express();
after.disable('x-powered-by');
after.post('/on-reco/v1/gateway/readings', leanAction(build, ROUTE, context));

const modes = {
  before: counted(before, 5000),
  after: counted(after, SERVER_TIMEOUTS.keepAliveTimeoutMs, { headersTimeout: SERVER_TIMEOUTS.headersTimeoutMs, requestTimeout: SERVER_TIMEOUTS.requestTimeoutMs }),
};
const ports: Record<string, number> = {};
for (const [name, m] of Object.entries(modes)) {
  await new Promise<void>((resolve) => m.server.listen(0, '127.0.0.1', resolve));
  ports[name] = (m.server.address() as { port: number }).port;
}

const start = Date.parse('2026-11-24T00:00:00+09:00');
// Sensors' addresses as a store has them: one vendor prefix, the rest as random as real ones
// (sequential ones would flatter gzip).
const serials = Array.from({ length: SENSORS }, (_, i) => {
  const h = (i * 2654435761 + 12345) >>> 0;
  return ['A4', 'C1', '38', (h >>> 24) & 0xff, (h >>> 16) & 0xff, (h >>> 8) & 0xff].map((b) => (typeof b === 'string' ? b : b.toString(16).padStart(2, '0').toUpperCase())).join(':');
});
const batch = (minute: number): WireReading[] =>
  Array.from({ length: SENSORS }, (_, i) => ({
    serial_no: serials[i],
    measured_at: formatMeasuredAt(start + minute * 60_000),
    temperature: Math.round((3 + Math.sin(minute / 30 + i) * 2) * 10) / 10,
    error: false,
    battery: 80 - (i % 7),
    receive_sensitivity: -60 - (i % 25),
  }));

const perUpload: Record<string, number[]> = { before: [], after: [] };
const clients = Object.fromEntries(Object.keys(modes).map((name) => [name, new ApiClient({ server: `https://localhost:${ports[name]}`, token: TOKEN, timeoutMs: 30_000 })]));
for (let minute = 0; minute < UPLOADS; minute += 1) {
  const t0 = Date.now();
  await Promise.all(
    Object.entries(modes).map(async ([name, m]) => {
      const was = m.bytes();
      const result = await clients[name].postReadings(batch(minute), false);
      if (!result.ok || result.value.accepted !== SENSORS) throw new Error(`${name}: upload ${minute} failed: ${JSON.stringify(result)}`);
      await new Promise((r) => setTimeout(r, 200)); // the server's last write has left
      perUpload[name].push(m.bytes() - was);
    }),
  );
  if (minute < UPLOADS - 1) await new Promise((r) => setTimeout(r, CADENCE_MS - (Date.now() - t0)));
}

// Segments of the connections still open (the kept one), from the kernel: TCP keep-alive probes
// and ACKs cost packets (IP + TCP headers, ~52 B each) that the byte count above does not show.
const segments = (port: number) => {
  const out = spawnSync('ss', ['-tinH', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' }).stdout ?? '';
  const num = (key: string) => [...out.matchAll(new RegExp(`\\b${key}:(\\d+)`, 'g'))].reduce((n, m) => n + Number(m[1]), 0);
  return out.trim() ? { segs_in: num('segs_in'), segs_out: num('segs_out') } : null;
};
const packets = Object.fromEntries(Object.keys(modes).map((name) => [name, segments(ports[name])]));

const report = Object.fromEntries(
  Object.entries(modes).map(([name, m]) => {
    const bytes = perUpload[name];
    const steady = bytes.slice(1);
    const steadyMean = steady.reduce((a, b) => a + b, 0) / Math.max(1, steady.length);
    // A day at this cadence: a connection that outlives the cadence costs its handshake once a day
    // (or per LTE reconnect); one that does not costs it with every upload.
    const uploadsPerDay = Math.round(86_400_000 / CADENCE_MS);
    const kept = m.connections === 1;
    const day = kept ? bytes[0] + steadyMean * (uploadsPerDay - 1) : (bytes.reduce((a, b) => a + b, 0) / bytes.length) * uploadsPerDay;
    return [name, {
      uploads: bytes.length, connections: m.connections, bytes_per_upload: bytes, open_connection_segments_server_side: packets[name],
      bytes_per_reading_this_run: Number((bytes.reduce((a, b) => a + b, 0) / (bytes.length * SENSORS)).toFixed(1)),
      bytes_per_reading_day: Number((day / (uploadsPerDay * SENSORS)).toFixed(1)),
    }];
  }),
);
console.log(JSON.stringify({ sensors: SENSORS, cadence_seconds: CADENCE_MS / 1000, tls: 'TLS 1.3, P-256 self-signed (no chain)', ...report }, null, 2));
for (const m of Object.values(modes)) m.server.close();
process.exit(0);
