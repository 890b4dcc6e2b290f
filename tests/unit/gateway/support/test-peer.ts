// A protocol test peer: a small node:http server that answers the gateway API of DESIGN.md
// ("The gateway protocol") the way the console will: pair, config, readings with dedup on
// (serial_no, measured_at) and per-reading rejects. It can also misbehave on purpose (429 with
// Retry-After, 5xx, dropped connections, a stored batch whose answer is lost, revoked token).
// It is a peer for retry and crash behaviour, not the console: the end-to-end test against the
// real ingest API comes with it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

import { MAX_READINGS_PER_BATCH, type WireReading } from '../../../../gateway/protocol';

export type { WireReading };

/** What the next readings request gets instead of a normal answer. */
export type Misbehaviour =
  | { status: number; retryAfter?: string; body?: unknown }
  /** Close the connection without answering (nothing stored). */
  | { drop: true }
  /** Store the batch, then close the connection without answering (the answer is lost). */
  | { storeThenDrop: true }
  /** Answer normally after a delay. */
  | { delayMs: number };

export interface ReadingsRequest {
  at: number;
  count: number;
  bufferOverflow: boolean;
  gzip: boolean;
  status: number;
}

export interface PeerOptions {
  gatewayInfo?: string;
  pin?: string;
  storeId?: string;
  config?: unknown;
  /** Random misbehaviour for readings requests (crash tests): probability and a seeded random. */
  chaos?: { probability: number; random: () => number };
  /** Every readings request takes at least this long (a slow link). */
  latencyMs?: number;
}

const API = '/on-reco/v1/gateway';

export class TestPeer {
  /** The token of the last pairing (each pairing issues a new one). */
  token = '';
  /** Stored readings, one per (serial_no, measured_at): the server's view. */
  readonly stored = new Map<string, WireReading>();
  /** Every copy ever received, by key: to check that a re-sent reading is identical. */
  readonly received = new Map<string, WireReading[]>();
  readonly readingsRequests: ReadingsRequest[] = [];
  readonly misbehaviours: Misbehaviour[] = [];
  /** Every token issued so far is refused (401) while true; a new pairing clears it. */
  revoked = false;
  configRequests = 0;
  /** Readings requests received and not yet answered (or dropped). */
  inFlight = 0;
  private server: Server | null = null;
  private tokens = new Set<string>();
  private revokedTokens = new Set<string>();

  constructor(readonly options: PeerOptions = {}) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((e) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: 'test_peer_failure', error_description: String(e) }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Readings with measured_at, as the server holds them, sorted. */
  storedKeys(): string[] {
    return [...this.stored.keys()].sort();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const url = req.url ?? '';
    if (req.method === 'POST' && url === `${API}/pair`) return this.pair(body, res);
    if (!url.startsWith(API)) return json(res, 404, { error: 'not_found' });
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!this.tokens.has(token) || this.revokedTokens.has(token) || this.revoked) return json(res, 401, { error: 'invalid_token', error_description: 'gateway token revoked' });
    if (req.method === 'GET' && url === `${API}/config`) {
      this.configRequests += 1;
      return json(res, 200, this.options.config ?? { store_id: this.storeId, sampling_interval_seconds: 60, sensors: [] });
    }
    if (req.method === 'POST' && url === `${API}/readings`) return this.readings(req, body, res);
    return json(res, 404, { error: 'not_found' });
  }

  private get storeId(): string {
    return this.options.storeId ?? 'S0001';
  }

  private pair(body: Buffer, res: ServerResponse) {
    const input = JSON.parse(body.toString('utf8')) as { gateway_info?: string; pin_code?: string };
    if (input.pin_code !== (this.options.pin ?? '123456')) {
      return json(res, 400, { error: 'invalid_pin', error_description: 'The PIN is wrong or has expired.' });
    }
    if (input.gateway_info !== (this.options.gatewayInfo ?? 'GW-0001')) {
      return json(res, 400, { error: 'invalid_gateway', error_description: 'This gateway is not registered for the store.' });
    }
    this.token = `gw-token-${this.tokens.size + 1}`;
    for (const old of this.tokens) this.revokedTokens.add(old);
    this.tokens.add(this.token);
    this.revoked = false;
    return json(res, 200, { gateway_token: this.token, store_id: this.storeId });
  }

  private async readings(req: IncomingMessage, raw: Buffer, res: ServerResponse): Promise<void> {
    this.inFlight += 1;
    try {
      await this.answerReadings(req, raw, res);
    } finally {
      this.inFlight -= 1;
    }
  }

  private async answerReadings(req: IncomingMessage, raw: Buffer, res: ServerResponse): Promise<void> {
    const gzip = req.headers['content-encoding'] === 'gzip';
    const payload = JSON.parse((gzip ? gunzipSync(raw) : raw).toString('utf8')) as { readings: WireReading[]; buffer_overflow?: boolean };
    let misbehaviour = this.misbehaviours.shift();
    const chaos = this.options.chaos;
    if (!misbehaviour && chaos && chaos.random() < chaos.probability) misbehaviour = randomMisbehaviour(chaos.random);
    const record = (status: number) =>
      this.readingsRequests.push({ at: Date.now(), count: payload.readings.length, bufferOverflow: payload.buffer_overflow === true, gzip, status });

    if (misbehaviour && 'drop' in misbehaviour) {
      record(0);
      req.socket.destroy();
      return;
    }
    if (misbehaviour && 'status' in misbehaviour) {
      record(misbehaviour.status);
      if (misbehaviour.retryAfter !== undefined) res.setHeader('retry-after', misbehaviour.retryAfter);
      return json(res, misbehaviour.status, misbehaviour.body ?? { error: 'unavailable', error_description: 'test peer says no' });
    }
    const delay = (misbehaviour && 'delayMs' in misbehaviour ? misbehaviour.delayMs : 0) + (this.options.latencyMs ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (payload.readings.length > MAX_READINGS_PER_BATCH) {
      record(400);
      return json(res, 400, { error: 'invalid_request', error_description: `at most ${MAX_READINGS_PER_BATCH} readings` });
    }
    const answer = this.store(payload.readings);
    if (misbehaviour && 'storeThenDrop' in misbehaviour) {
      record(0);
      req.socket.destroy();
      return;
    }
    record(200);
    return json(res, 200, answer);
  }

  private store(readings: WireReading[]) {
    let accepted = 0;
    let duplicates = 0;
    const rejected: { index: number; reason: string }[] = [];
    readings.forEach((r, index) => {
      const reason = invalid(r);
      if (reason) {
        rejected.push({ index, reason });
        return;
      }
      const key = `${r.serial_no}|${r.measured_at}`;
      const copies = this.received.get(key) ?? [];
      copies.push(r);
      this.received.set(key, copies);
      if (this.stored.has(key)) {
        duplicates += 1;
      } else {
        this.stored.set(key, r);
        accepted += 1;
      }
    });
    return { accepted, duplicates, rejected };
  }
}

function invalid(r: WireReading): string | null {
  if (!/^\d{14}$/.test(r.measured_at ?? '')) return 'measured_at must be YYYYMMDDHHmmss';
  if (r.error && r.temperature !== null) return 'temperature must be null when error is true';
  if (!r.error && (typeof r.temperature !== 'number' || r.temperature < -100 || r.temperature > 150)) return 'temperature out of range';
  return null;
}

function randomMisbehaviour(random: () => number): Misbehaviour {
  const r = random();
  if (r < 0.25) return { status: 503 };
  if (r < 0.4) return { status: 429, retryAfter: '0' };
  if (r < 0.6) return { drop: true };
  if (r < 0.85) return { storeThenDrop: true };
  return { delayMs: 200 };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}
