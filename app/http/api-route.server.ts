import { type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node';
import { type Db, getDb } from '~/db/db.server';
import { type AnswerOf, type ApiCall, type InputOf, methodsAt, type Schema } from '~/domain/api';
import type { Viewer } from '~/models/users.server';
import { requireApiRole, requireApiStoreAccess, requireApiUser, requireGatewayStore } from './access.server';
import { jsonAnswer } from './json-answer.server';
import { bodyOf, discardBody, fieldErrors, formBodyOf, gzipJsonBodyOf, invalidRequest, methodNotAllowed, searchParamsOf } from './api.server';

/** What a refused request's body is read up to when its call declares no size (the web server's own limit for such bodies). */
const UNDECLARED_BODY_BYTES = 1024 * 1024;

// The glue between a declared call (app/domain/api/) and its route module: the route gives the
// declaration and a handler; the glue answers 405 for other methods, authenticates as declared
// (401), enforces the permission (403), reads and parses the declared input (400), checks the
// store the input names (404) and calls the handler. Routes never parse or guard by hand.

type CallerOf<C extends ApiCall> = C['access'] extends { kind: 'user' } ? { viewer: Viewer } : C['access'] extends { kind: 'gateway' } ? { storeId: string } : object;

/** What a handler gets: who calls (viewer or the gateway's storeId), the parsed input, the request and what the web server knows of it (loadContext), the db and the clock. */
export type ApiContext<C extends ApiCall, A = undefined> = CallerOf<C> & { input: InputOf<C>; attachments: A; request: Request; loadContext: AppLoadContext; db: Db; now: Date };

/** A handler answers a Response (any status, its own headers) or the data of the declared JSON answer. */
export type ApiHandler<C extends ApiCall, A = undefined> = (context: ApiContext<C, A>) => Promise<Response | AnswerOf<C>> | Response | AnswerOf<C>;

export interface ApiRouteOptions<A = undefined> {
  /** Wraps reading the input and the handler, after authentication (the readings' in-flight limit); an answer of its own must read or discard the body (discardBody). */
  around?: (next: () => Promise<Response>, request: Request) => Promise<Response>;
  /** Reads a body the glue cannot (multipart with files): the fields to parse and what the handler gets besides, or a failure answer. */
  readBody?: (request: Request) => Promise<Response | { fields: unknown; attachments: A }>;
  /** A call that answers a malformed input its own way (the OAuth token call). */
  invalid?: (fields: Record<string, string>) => Response;
  /** A call that answers another method its own way. */
  notAllowed?: () => Response;
}

/** A route export made from declarations: the calls it serves, for the registry test. */
export type ApiRouteFunction = ((args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<Response>) & { apiCalls: readonly ApiCall[] };

const tagged = (calls: readonly ApiCall[], handler: (args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<Response>): ApiRouteFunction =>
  Object.assign(handler, { apiCalls: calls });

/** The loader of a declared GET call. */
export function apiLoader<C extends ApiCall & { method: 'GET' }, A = undefined>(call: C, handler: ApiHandler<C, A>, options: ApiRouteOptions<A> = {}): ApiRouteFunction {
  return tagged([call], ({ request, context }) => serve(call, handler, options, request, context));
}

/** The action of a declared POST (PUT, PATCH, DELETE) call; any other method is 405 with Allow. */
export function apiAction<C extends ApiCall, A = undefined>(call: C, handler: ApiHandler<C, A>, options: ApiRouteOptions<A> = {}): ApiRouteFunction {
  return tagged([call], async ({ request, context }) => {
    if (request.method !== call.method) return options.notAllowed?.() ?? methodNotAllowed(methodsAt(call.path));
    return serve(call, handler, options, request, context);
  });
}

/**
 * The action of a path that serves several declared calls besides GET (POST and DELETE of one
 * path): each request goes to the route of its method; another method gets the first route's
 * answer to it (405 with Allow unless that route says otherwise).
 *   export const action = apiActions(apiAction(saveX, …), apiAction(deleteX, …));
 */
export function apiActions(...routes: ApiRouteFunction[]): ApiRouteFunction {
  const calls = routes.flatMap((route) => route.apiCalls);
  return tagged(calls, async (args) => {
    const route = routes.find((candidate) => candidate.apiCalls.some((call) => call.method === args.request.method));
    return (route ?? routes[0])(args); // routes[0] answers another method its own way (405 with Allow by default)
  });
}

/** The loader or action of a path where that export serves no declared call: 405 with the declared methods. */
export function apiNotAllowed(path: string, answer: () => Response = () => methodNotAllowed(methodsAt(path))): ApiRouteFunction {
  return tagged([], async () => answer());
}

async function serve<C extends ApiCall, A>(call: C, handler: ApiHandler<C, A>, options: ApiRouteOptions<A>, request: Request, loadContext: AppLoadContext): Promise<Response> {
  const now = new Date();
  const caller = await authenticate(call, request).catch(async (refusal: unknown) => {
    // Refused before the body is read: read it to its end (bounded by the call's size), or a
    // client still sending a large body (an import) meets a reset instead of the 401 or 403.
    if (refusal instanceof Response && call.input?.in === 'body') await discardBody(request, call.input.maxBytes ?? UNDECLARED_BODY_BYTES);
    throw refusal;
  });
  const run = async () => {
    const read = await readInput(call, options, request, now);
    if (read instanceof Response) return read;
    const { input, attachments } = read;
    if ('viewer' in caller && call.access.kind === 'user' && call.access.store) {
      await requireApiStoreAccess(caller.viewer, String((input as Record<string, unknown>)[call.access.store]));
    }
    const context = { ...caller, input, attachments, request, loadContext, db: getDb(), now } as ApiContext<C, A>;
    return answerOf(call, await handler(context));
  };
  return options.around ? options.around(run, request) : run();
}

async function authenticate(call: ApiCall, request: Request): Promise<{ viewer: Viewer } | { storeId: string } | object> {
  const { access } = call;
  if (access.kind === 'gateway') return { storeId: await requireGatewayStore(request) };
  if (access.kind === 'user') return { viewer: await (access.permission ? requireApiRole(request, access.permission) : requireApiUser(request)) };
  return {};
}

async function readInput<A>(call: ApiCall, options: ApiRouteOptions<A>, request: Request, now: Date): Promise<Response | { input: unknown; attachments: A | undefined }> {
  const declared = call.input;
  if (!declared) return { input: undefined, attachments: undefined };
  let raw: unknown;
  let attachments: A | undefined;
  if (declared.in === 'query') {
    raw = searchParamsOf(request);
  } else if (options.readBody) {
    const body = await options.readBody(request);
    if (body instanceof Response) return body;
    ({ fields: raw, attachments } = body);
  } else if (declared.encoding === 'json-or-form') {
    raw = await bodyOf(request);
  } else if (declared.encoding === 'form') {
    raw = await formBodyOf(request);
  } else if (declared.encoding === 'json-gzip') {
    raw = await gzipJsonBodyOf(request, declared.maxBytes ?? Number.POSITIVE_INFINITY);
  } else {
    throw new Error(`${call.id}: a ${declared.encoding} body needs the route's readBody`);
  }
  const schema: Schema = typeof declared.schema === 'function' ? declared.schema(now) : declared.schema;
  // Async: an import's schema hands the event loop back while it reads (decision 279).
  const parsed = await schema.safeParseAsync(raw);
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    throw options.invalid ? options.invalid(fields) : invalidRequest(fields);
  }
  return { input: parsed.data, attachments };
}

function answerOf(call: ApiCall, answer: unknown): Response {
  if (answer instanceof Response) return answer;
  const headers = call.cacheControl ? { 'Cache-Control': call.cacheControl } : undefined;
  return jsonAnswer(answer, { status: call.answer.statuses[0], headers });
}

/**
 * readBody of a DELETE whose input 001 §7 sends in the query (`DELETE …/edit?usergroup_id=`): the
 * query when the request carries no body, else the body as any json-or-form call reads it (415 for
 * another type). Both carry the same declared fields. "No body" is judged by the headers: the
 * Express adapter gives every DELETE a body stream, empty or not.
 */
export async function queryOrBody(request: Request): Promise<{ fields: unknown; attachments: undefined }> {
  const length = request.headers.get('Content-Length');
  const bodiless = !request.headers.get('Content-Type') && !request.headers.get('Transfer-Encoding') && (length === null || length.trim() === '0');
  if (request.body === null || bodiless) return { fields: searchParamsOf(request), attachments: undefined };
  return { fields: await bodyOf(request), attachments: undefined };
}
