// The client of the gateway API (DESIGN.md "The gateway protocol", whose wire format is
// protocol.ts), and nothing else.
import http from 'node:http';
import https from 'node:https';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { parseRetryAfter } from './backoff';
import { HeardAnswerSchema, type HeardRequest, UpdateFailureAnswerSchema, type UpdateFailureRequest } from './protocol';
import { ErrorAnswerSchema, GATEWAY_API_PREFIX, HealthAnswerSchema, type HealthReport, PairAnswerSchema, ReadingsAnswerSchema, type ReadingsAnswer, type ReadingsRequest, type WireReading } from './protocol';

/** Why a call did not get a usable answer. */
export type ApiFailure =
  | { kind: 'network'; message: string }
  | { kind: 'http'; status: number; retryAfterMs?: number; message: string }
  | { kind: 'invalid-answer'; status: number; message: string };

export type ApiResult<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

export function describeFailure(f: ApiFailure): string {
  switch (f.kind) {
    case 'network':
      return `network error: ${f.message}`;
    case 'http':
      return `HTTP ${f.status}: ${f.message}`;
    default:
      return `unusable answer (HTTP ${f.status}): ${f.message}`;
  }
}

export interface ApiClientOptions {
  server: string;
  token?: string;
  timeoutMs: number;
  /** Cancels requests in flight (stop). */
  signal?: AbortSignal;
  now?: () => number;
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  bytes: Buffer;
}

/**
 * How long an idle connection to the server is kept for the next upload. Node's global agent
 * keeps one 5 s only, so at a 60 s cadence every upload opened a new connection (a TLS handshake
 * over LTE, more bytes than the readings). Above the cadence (60 s by default) with a margin, and
 * below the server's keep-alive (75 s, docs/decisions/266) so that the server never closes a
 * connection the gateway is about to use; a shorter `Keep-Alive: timeout=` hint from the server
 * (or a proxy) still wins (Node's agent honours it, minus 1 s).
 */
export const KEEP_ALIVE_IDLE_MS = 70_000;
// keepAliveMsecs is the idle time before TCP keep-alive probes start, one per that much idle time
// while answered: Node's default 1 s would send ~60 probe/ACK pairs in every minute between
// uploads (≈ 6 KB of packets over LTE; tests/bench/gateway-wire.ts saw 20 pairs in a 20 s gap). Past the idle hold no probe is ever sent; carrier NATs
// keep an established TCP mapping for hours (RFC 5382: at least 2 h 4 min).
const AGENT_OPTIONS = { keepAlive: true, keepAliveMsecs: 2 * KEEP_ALIVE_IDLE_MS, maxSockets: 2, timeout: KEEP_ALIVE_IDLE_MS };
const AGENTS = { http: new http.Agent(AGENT_OPTIONS), https: new https.Agent(AGENT_OPTIONS) };

/**
 * One HTTP exchange with node:http(s): lighter than fetch (undici costs ~10 MB of RSS on a
 * 64 MB budget) and keeps the connection alive between batches (fewer TLS handshakes over LTE).
 */
function exchange(url: string, method: string, headers: Record<string, string>, body: Uint8Array | undefined, signal: AbortSignal, retried = false): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const transport = target.protocol === 'https:' ? https : http;
    if (body) headers['content-length'] = String(body.byteLength);
    const agent = target.protocol === 'https:' ? AGENTS.https : AGENTS.http;
    const req = transport.request(target, { method, headers, signal, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: bytes.toString('utf8'), bytes });
      });
      res.on('error', reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the server closed as this request went out (a web process
      // stopping, its idle timeout): nothing was read, so it goes again once on a new connection.
      if (req.reusedSocket && error.code === 'ECONNRESET' && !retried && !signal.aborted) resolve(exchange(url, method, headers, body, signal, true));
      else reject(error);
    });
    req.end(body);
  });
}

export class ApiClient {
  constructor(private readonly options: ApiClientOptions) {}

  withToken(token: string): ApiClient {
    return new ApiClient({ ...this.options, token });
  }

  async pair(gatewayInfo: string, pinCode: string): Promise<ApiResult<{ gatewayToken: string; storeId: string }>> {
    const res = await this.request('POST', '/pair', { json: { gateway_info: gatewayInfo, pin_code: pinCode } });
    if (!res.ok) return res;
    const answer = this.parseJson(res.value, PairAnswerSchema);
    if (!answer.ok) return answer;
    return { ok: true, value: { gatewayToken: answer.value.gateway_token, storeId: answer.value.store_id } };
  }

  /** The raw /config body (parsed JSON); the caller validates it (state.ts parseStoreConfig). */
  async getConfig(): Promise<ApiResult<unknown>> {
    const res = await this.request('GET', '/config', {});
    if (!res.ok) return res;
    return this.parseJson(res.value, z.unknown());
  }

  async postReadings(readings: WireReading[], bufferOverflow: boolean, health?: HealthReport): Promise<ApiResult<ReadingsAnswer>> {
    const body: ReadingsRequest & { health?: HealthReport } = { readings };
    if (bufferOverflow) body.buffer_overflow = true;
    if (health) body.health = health;
    const res = await this.request('POST', '/readings', { json: body, gzip: true });
    if (!res.ok) return res;
    return this.parseJson(res.value, ReadingsAnswerSchema);
  }

  /** POST /heard: BLE sensors heard that are not in the config (issue 12). */
  async postHeard(report: HeardRequest): Promise<ApiResult<{ stored: number }>> {
    const res = await this.request('POST', '/heard', { json: report });
    if (!res.ok) return res;
    return this.parseJson(res.value, HeardAnswerSchema);
  }

  /** The health report on its own (nothing to upload, or something that cannot wait); small, so not gzipped. */
  async postHealth(report: HealthReport): Promise<ApiResult<{ stored: boolean }>> {
    const res = await this.request('POST', '/health', { json: report });
    if (!res.ok) return res;
    return this.parseJson(res.value, HealthAnswerSchema);
  }

  /** GET /release?version=: the bundle's bytes (checked by the caller before anything is unpacked). */
  async getRelease(version: string): Promise<ApiResult<Buffer>> {
    const res = await this.request('GET', `/release?version=${encodeURIComponent(version)}`, {}, true);
    if (!res.ok) return res;
    return { ok: true, value: res.value.bytes };
  }

  /** POST /update_failure: this box rolled back from `version` by itself. */
  async postUpdateFailure(report: UpdateFailureRequest): Promise<ApiResult<{ stored: boolean }>> {
    const res = await this.request('POST', '/update_failure', { json: report });
    if (!res.ok) return res;
    return this.parseJson(res.value, UpdateFailureAnswerSchema);
  }

  private parseJson<T>(res: RawResponse, schema: z.ZodType<T, z.ZodTypeDef, unknown>): ApiResult<T> {
    let json: unknown;
    try {
      json = JSON.parse(res.text);
    } catch {
      return { ok: false, failure: { kind: 'invalid-answer', status: res.status, message: `not JSON: ${snippet(res.text)}` } };
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      return { ok: false, failure: { kind: 'invalid-answer', status: res.status, message } };
    }
    return { ok: true, value: parsed.data };
  }

  private async request(
    method: 'GET' | 'POST',
    route: string,
    { json, gzip }: { json?: unknown; gzip?: boolean },
    large = false,
  ): Promise<ApiResult<RawResponse>> {
    // No Accept: every answer of the gateway API is JSON, and each header is paid on every upload
    // over LTE (tests/bench/gateway-wire.ts).
    const headers: Record<string, string> = {};
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let body: Uint8Array | undefined;
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      const text = JSON.stringify(json);
      if (gzip) {
        headers['content-encoding'] = 'gzip';
        body = gzipSync(text, { level: 9 }); // a few KB: the best level costs nothing and saves bytes on air
      } else {
        body = Buffer.from(text);
      }
    }
    // A release is megabytes over LTE: ten request timeouts for it.
    const signals = [AbortSignal.timeout(this.options.timeoutMs * (large ? 10 : 1))];
    if (this.options.signal) signals.push(this.options.signal);
    let response: RawResponse;
    try {
      response = await exchange(endpoint(this.options.server, route), method, headers, body, AbortSignal.any(signals));
    } catch (e) {
      return { ok: false, failure: { kind: 'network', message: networkMessage(e) } };
    }
    const text = response.text;
    if (response.status >= 200 && response.status < 300) return { ok: true, value: response };
    const now = this.options.now?.() ?? Date.now();
    return {
      ok: false,
      failure: {
        kind: 'http',
        status: response.status,
        retryAfterMs: parseRetryAfter(firstHeader(response.headers['retry-after']), now),
        message: errorMessage(text),
      },
    };
  }
}

export function endpoint(server: string, route: string): string {
  return server.replace(/\/+$/, '') + GATEWAY_API_PREFIX + route;
}

function errorMessage(text: string): string {
  try {
    const parsed = ErrorAnswerSchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      return parsed.data.error_description ? `${parsed.data.error}: ${parsed.data.error_description}` : parsed.data.error;
    }
  } catch {
    // not JSON: fall through
  }
  return snippet(text) || '(empty body)';
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function networkMessage(e: unknown): string {
  const err = e as Error & { code?: string; cause?: { name?: string } };
  // An abort carries the signal's reason as its cause: a TimeoutError for AbortSignal.timeout.
  if (err?.name === 'AbortError') return err.cause?.name === 'TimeoutError' ? 'request timed out' : 'request aborted';
  return err?.code ? `${err.message} (${err.code})` : (err?.message ?? String(e));
}
