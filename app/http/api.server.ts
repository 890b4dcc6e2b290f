import { json } from '@remix-run/node';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { ZodError, ZodType, ZodTypeDef } from 'zod';
import { apiError } from './access.server';

const gunzipAsync = promisify(gunzip);

// Parsing of /on-reco inputs: one zod schema per input; a bad input is a 400 that names each
// field and its reason, and changes nothing.

export function fieldErrors(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || '_';
    fields[field] ??= issue.message;
  }
  return fields;
}

/**
 * At most this many field errors in an answer (the first ones, in the input's order), with
 * `error_count` telling how many there were: a 5,000-store import that is wrong everywhere is
 * answered in a few kilobytes, not megabytes (decision 279).
 */
export const INVALID_FIELDS_SHOWN = 100;

export function invalidRequest(fields: Record<string, string>): Response {
  const entries = Object.entries(fields);
  const shown = entries.slice(0, INVALID_FIELDS_SHOWN);
  const more = entries.length - shown.length;
  const description = shown.map(([field, reason]) => `${field}: ${reason}`).join('; ') + (more > 0 ? `; … and ${more} more` : '');
  return apiError(400, 'invalid_request', description, { fields: Object.fromEntries(shown), ...(more > 0 ? { error_count: entries.length } : {}) });
}

export function parseOrThrow<T>(schema: ZodType<T, ZodTypeDef, unknown>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidRequest(fieldErrors(result.error));
  return result.data;
}

export function searchParamsOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}

const JSON_TYPE = 'application/json';
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** The body's media type without its parameters, in lower case ('' when none is given). */
export function mediaTypeOf(request: Request): string {
  return (request.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
}

/** 415: a body of a type the call does not read (text/plain, XML, none…), refused before it is read. */
export function unsupportedMediaType(accepted: readonly string[]): Response {
  return apiError(415, 'unsupported_media_type', `Send the body as ${accepted.join(' or ')}.`);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const SHIFT_JIS = new TextDecoder('shift_jis', { fatal: true });

/**
 * A JSON body's text. JSON is UTF-8 (RFC 8259): other bytes are refused, naming Shift_JIS (CP932)
 * when they read as it (Excel's CSVs in Japan), instead of being stored as U+FFFD (issue 30).
 */
function utf8Text(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    let shiftJis = true;
    try {
      SHIFT_JIS.decode(bytes);
    } catch {
      shiftJis = false;
    }
    throw invalidRequest({ _: shiftJis ? 'the body is Shift_JIS (CP932) text, not UTF-8: send JSON in UTF-8' : 'the body is not UTF-8 text: send JSON in UTF-8' });
  }
}

async function jsonOf(request: Request): Promise<unknown> {
  const text = utf8Text(new Uint8Array(await request.arrayBuffer()));
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest({ _: 'the body is not valid JSON' });
  }
}

async function formOf(request: Request): Promise<Record<string, FormDataEntryValue>> {
  try {
    return Object.fromEntries(await request.formData());
  } catch {
    throw invalidRequest({ _: 'the body is not a valid form' });
  }
}

/** JSON or form body (the specification's calls use both), as a plain object; any other type is 415. */
export async function bodyOf(request: Request): Promise<unknown> {
  const type = mediaTypeOf(request);
  if (type === JSON_TYPE) return jsonOf(request);
  if (FORM_TYPES.includes(type)) return formOf(request);
  throw unsupportedMediaType([JSON_TYPE, ...FORM_TYPES]);
}

/** A form body only (the OAuth token call); anything that is not a form reads as an empty one. */
export async function formBodyOf(request: Request): Promise<Record<string, FormDataEntryValue>> {
  return Object.fromEntries(await request.formData().catch(() => new FormData()));
}

/** A JSON body that may be gzipped (Content-Encoding: gzip), at most `maxBytes` once unpacked; another type is 415, unread. */
export async function gzipJsonBodyOf(request: Request, maxBytes: number): Promise<unknown> {
  if (mediaTypeOf(request) !== JSON_TYPE) throw unsupportedMediaType([JSON_TYPE]);
  let body = Buffer.from(await request.arrayBuffer());
  if ((request.headers.get('Content-Encoding') ?? '').toLowerCase() === 'gzip') {
    try {
      // On libuv's thread pool: an import's 32 MB do not hold the event loop (decision 279).
      body = await gunzipAsync(body, { maxOutputLength: maxBytes });
    } catch {
      throw apiError(400, 'invalid_request', 'The body is not valid gzip or is too large.');
    }
  }
  if (body.length > maxBytes) throw apiError(413, 'invalid_request', 'The body is too large.');
  const text = utf8Text(body);
  try {
    return JSON.parse(text);
  } catch {
    throw apiError(400, 'invalid_request', 'The body is not valid JSON.');
  }
}

/**
 * Reads and drops a body that will not be used, up to `maxBytes` (then stops reading), before an
 * early answer: a body left unread leaves the client still sending, so it sees its connection
 * reset or stuck instead of the answer (the readings' 429).
 */
export async function discardBody(request: Request, maxBytes: number): Promise<void> {
  if (!request.body || request.bodyUsed) return;
  const reader = request.body.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > maxBytes) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing left to answer.
  }
}

export function methodNotAllowed(allowed: string[]): Response {
  return json({ error: 'method_not_allowed', error_description: `Use ${allowed.join(' or ')}.` }, { status: 405, headers: { Allow: allowed.join(', ') } });
}
