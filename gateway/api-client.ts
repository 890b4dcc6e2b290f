// The client of the gateway API (DESIGN.md "The gateway protocol", whose wire format is
// protocol.ts), and nothing else.
import http from 'node:http';
import https from 'node:https';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { parseRetryAfter } from './backoff';
import { HeardAnswerSchema, type HeardRequest } from './protocol';
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
}

/**
 * One HTTP exchange with node:http(s): lighter than fetch (undici costs ~10 MB of RSS on a
 * 64 MB budget) and keeps the connection alive between batches (fewer TLS handshakes over LTE).
 */
function exchange(url: string, method: string, headers: Record<string, string>, body: Uint8Array | undefined, signal: AbortSignal): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const transport = target.protocol === 'https:' ? https : http;
    if (body) headers['content-length'] = String(body.byteLength);
    const req = transport.request(target, { method, headers, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
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
  ): Promise<ApiResult<RawResponse>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let body: Uint8Array | undefined;
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      const text = JSON.stringify(json);
      if (gzip) {
        headers['content-encoding'] = 'gzip';
        body = gzipSync(text);
      } else {
        body = Buffer.from(text);
      }
    }
    const signals = [AbortSignal.timeout(this.options.timeoutMs)];
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
