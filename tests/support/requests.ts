import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { expectDeclaredAnswer } from './api-answers';

// Calls a route module's loader or action the way Remix does, with a real Request.
type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown> | unknown;

export const BASE = 'http://localhost';

// An /on-reco answer is checked against its declared answer schema (api-answers.ts).
export async function call(handler: Handler, request: Request, params: Record<string, string> = {}): Promise<Response> {
  const response = await answerOf(handler, request, params);
  await expectDeclaredAnswer(request, response);
  return response;
}

async function answerOf(handler: Handler, request: Request, params: Record<string, string>): Promise<Response> {
  try {
    const result = await handler({ request, params, context: {} });
    if (result instanceof Response) return result;
    return Response.json(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export function get(path: string, token?: string, headers: Record<string, string> = {}): Request {
  return new Request(BASE + path, { headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers } });
}

export function postJson(path: string, body: unknown, token?: string, method = 'POST'): Request {
  return new Request(BASE + path, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/**
 * A DELETE with its input in the query, as the Express adapter hands it to a route: with an
 * empty body stream (it gives every DELETE one), no Content-Type.
 */
export function deleteByQuery(path: string, token?: string): Request {
  return new Request(BASE + path, {
    method: 'DELETE',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    body: new ReadableStream({ start: (controller) => controller.close() }),
    duplex: 'half',
  } as RequestInit);
}

export function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(BASE + path, { method: 'POST', headers, body: new URLSearchParams(fields) });
}

/** Signs in through POST /on-reco/token and returns the bearer token. */
export async function tokenFor(loginId: string, password: string): Promise<string> {
  const { action } = await import('../../app/routes/on-reco+/token');
  const response = await call(action as Handler, postForm('/on-reco/token', { grant_type: 'password', username: loginId, password }));
  if (response.status !== 200) throw new Error(`login of ${loginId} failed: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
