import { json } from '@remix-run/node';

/**
 * JSON with its Content-Length. Without one the compression middleware cannot apply its 1 KB
 * threshold and gzips every answer, however small: a gzip stream per answer cost an ingest batch
 * more than its JSON (docs/decisions/182).
 */
export function jsonAnswer(data: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const body = JSON.stringify(data) as string | undefined;
  if (body === undefined) return json(data, init);
  return new Response(body, {
    status: init.status ?? 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), ...init.headers },
  });
}
