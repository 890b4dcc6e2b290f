// The gateway API of DESIGN.md ("The gateway protocol"), and nothing else.
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { parseRetryAfter } from './backoff';

export const API_PREFIX = '/on-reco/v1/gateway';

/** A reading as the protocol carries it. */
export interface WireReading {
  serial_no: string;
  measured_at: string;
  temperature: number | null;
  error: boolean;
  battery: number | null;
  receive_sensitivity: number | null;
}

export const ReadingsAnswerSchema = z.object({
  accepted: z.number().int().min(0),
  duplicates: z.number().int().min(0),
  rejected: z.array(z.object({ index: z.number().int().min(0), reason: z.string().optional().default('') })).default([]),
});
export type ReadingsAnswer = z.infer<typeof ReadingsAnswerSchema>;

const PairAnswerSchema = z.object({
  gateway_token: z.string().min(1),
  store_id: z.union([z.string(), z.number()]).transform(String),
});

const ErrorBodySchema = z.object({ error: z.string(), error_description: z.string().optional() });

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
  headers: Headers;
  text: string;
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

  async postReadings(readings: WireReading[], bufferOverflow: boolean): Promise<ApiResult<ReadingsAnswer>> {
    const body: { readings: WireReading[]; buffer_overflow?: boolean } = { readings };
    if (bufferOverflow) body.buffer_overflow = true;
    const res = await this.request('POST', '/readings', { json: body, gzip: true });
    if (!res.ok) return res;
    return this.parseJson(res.value, ReadingsAnswerSchema);
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
    let body: BodyInit | undefined;
    if (json !== undefined) {
      headers['content-type'] = 'application/json';
      const text = JSON.stringify(json);
      if (gzip) {
        headers['content-encoding'] = 'gzip';
        body = new Uint8Array(gzipSync(text));
      } else {
        body = text;
      }
    }
    const signals = [AbortSignal.timeout(this.options.timeoutMs)];
    if (this.options.signal) signals.push(this.options.signal);
    let response: Response;
    let text: string;
    try {
      response = await fetch(endpoint(this.options.server, route), {
        method,
        headers,
        body,
        signal: AbortSignal.any(signals),
      });
      text = await response.text();
    } catch (e) {
      return { ok: false, failure: { kind: 'network', message: networkMessage(e) } };
    }
    if (response.status >= 200 && response.status < 300) {
      return { ok: true, value: { status: response.status, headers: response.headers, text } };
    }
    const now = this.options.now?.() ?? Date.now();
    return {
      ok: false,
      failure: {
        kind: 'http',
        status: response.status,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), now),
        message: errorMessage(text),
      },
    };
  }
}

export function endpoint(server: string, route: string): string {
  return server.replace(/\/+$/, '') + API_PREFIX + route;
}

function errorMessage(text: string): string {
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
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

function networkMessage(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError') return 'request timed out';
  if (err?.name === 'AbortError') return 'request aborted';
  const cause = err?.cause;
  if (cause?.code || cause?.message) return `${err.message} (${cause.code ?? cause.message})`;
  return err?.message ?? String(e);
}
