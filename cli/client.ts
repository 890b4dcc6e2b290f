// The CLI's typed client of the /on-reco API. It is built from the API registry
// (app/domain/api/), the same declarations the server routes, the OpenAPI description and the
// tests come from: a call's input and answer types are its zod schemas, so a renamed field
// breaks this build, not a customer's script; answers are checked against the schema at run
// time too, so a server of another version gives a clear line instead of wrong output.
import type { z } from 'zod';
import type { ApiCall, Schema } from '../app/domain/api/call';
import type { CliContext } from './context';
import { CliError } from './errors';
import type { Session } from './session';

type SchemaOf<S> = S extends (now: Date) => infer R ? R : S;

/** What the call takes on the wire (before the server's transforms). */
export type WireInput<C extends ApiCall> = C['input'] extends { schema: infer S } ? (SchemaOf<S> extends Schema ? z.input<SchemaOf<S>> : never) : undefined;

/** What the call answers, once checked. */
export type WireAnswer<C extends ApiCall> = C['answer'] extends { json: infer S extends Schema } ? z.output<S> : never;

export interface DownloadedFile {
  fileName: string;
  contentType: string;
  body: Buffer;
}

/** The server's failure body ({error, error_description, fields}) as one CliError. */
async function failureOf(response: Response, call: ApiCall): Promise<CliError> {
  const text = await response.text().catch(() => '');
  let body: { error?: string; error_description?: string; fields?: Record<string, unknown> } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: a proxy's page or an empty body
  }
  const fields = Object.fromEntries(Object.entries(body.fields ?? {}).map(([field, reason]) => [field, Array.isArray(reason) ? reason.join('; ') : String(reason)]));
  const reason = body.error_description ?? body.error ?? (text.slice(0, 200) || response.statusText);
  if (response.status === 401) return new CliError(`not signed in or the session expired (${reason}): run \`onreco login\``, fields);
  if (response.status === 403) return new CliError(`not allowed: ${reason}`, fields);
  if (response.status === 404 && !body.error) return new CliError(`${call.method} ${call.path} is not on this server (is it an On-Reco console of this version?)`);
  return new CliError(`${reason} (${response.status}${body.error ? ` ${body.error}` : ''})`, fields);
}

const GZIP_FROM_BYTES = 64 * 1024;
/** How often a call refused with 429 is sent in all, and the longest wait between two sends. */
const RATE_LIMITED_ATTEMPTS = 6;
const RETRY_AFTER_CAP_S = 60;

function queryOf(input: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export class ApiClient {
  constructor(
    private readonly ctx: CliContext,
    readonly session: Session,
  ) {}

  /**
   * Sends, and when the server answers 429 (its rate limit for this client, or busy) waits the
   * Retry-After it names and sends again: the server refused before doing anything, so a write
   * is safe to repeat. Listing a whole chain is hundreds of calls, past the limit's burst.
   */
  private async send(call: ApiCall, input: unknown): Promise<Response> {
    for (let attempt = 1; ; attempt += 1) {
      const response = await this.sendOnce(call, input);
      if (response.status !== 429 || attempt === RATE_LIMITED_ATTEMPTS) return response;
      await response.body?.cancel();
      const seconds = Number(response.headers.get('retry-after'));
      await new Promise((resolve) => setTimeout(resolve, Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds : 1, RETRY_AFTER_CAP_S) * 1000));
    }
  }

  private async sendOnce(call: ApiCall, input: unknown): Promise<Response> {
    const values = (input ?? {}) as Record<string, unknown>;
    const inBody = call.input?.in === 'body';
    const form = inBody && call.input?.in === 'body' && call.input.encoding === 'form';
    const headers: Record<string, string> = { accept: 'application/json, */*' };
    if (this.session.token) headers.authorization = `Bearer ${this.session.token}`;
    let body: string | Blob | undefined;
    if (inBody) {
      headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
      body = form ? queryOf(values).slice(1) : JSON.stringify(values);
      // A call that takes gzip gets it when it pays (an import's megabytes of JSON shrink tenfold).
      if (call.input?.in === 'body' && call.input.encoding === 'json-gzip' && body.length > GZIP_FROM_BYTES) {
        const { gzipSync } = await import('node:zlib');
        body = new Blob([gzipSync(body)]);
        headers['content-encoding'] = 'gzip';
      }
    }
    const url = `${this.session.server}${call.path}${inBody ? '' : queryOf(values)}`;
    try {
      return await this.ctx.fetch(url, { method: call.method, headers, body, redirect: 'manual' });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(`cannot reach ${this.session.server}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
  }

  /** Calls and returns the checked answer; any failure is one CliError. */
  async call<C extends ApiCall>(call: C, input: WireInput<C>): Promise<WireAnswer<C>> {
    const response = await this.send(call, input);
    if (!response.ok) throw await failureOf(response, call);
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      throw new CliError(`${this.session.server} did not answer ${call.method} ${call.path} with JSON (is it an On-Reco console?)`);
    }
    if (!('json' in call.answer)) throw new CliError(`${call.id} answers a file; use download`);
    const parsed = call.answer.json.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CliError(`the server answered ${call.id} in a shape this onreco does not know (${issue.path.join('.') || 'answer'}: ${issue.message}); update onreco or the server`);
    }
    return parsed.data as WireAnswer<C>;
  }

  /** Calls a call that answers a file: its name from Content-Disposition. */
  async download<C extends ApiCall>(call: C, input: WireInput<C>, fallbackName: string): Promise<DownloadedFile> {
    const response = await this.send(call, input);
    if (!response.ok) throw await failureOf(response, call);
    return {
      fileName: fileNameOf(response.headers.get('content-disposition')) ?? fallbackName,
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      body: Buffer.from(await response.arrayBuffer()),
    };
  }
}

/**
 * The file name of a Content-Disposition header (filename* in UTF-8 first), reduced to a plain
 * name in the current folder: the server's name is never trusted with a path (`../`, `/etc/`,
 * `C:\`), control characters or a name of `.`/`..`; such a name is null (the caller's default).
 */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  const raw = extended ? safeDecode(extended[1]) : plain ? plain[1] : null;
  if (raw === null) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  const name = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').replace(/^[A-Za-z]:/, '').trim();
  return name === '' || name === '.' || name === '..' ? null : name;
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
