import { z } from 'zod';
import type { Permission } from '../roles';

// The shape of one /on-reco call's declaration (DESIGN.md "The API registry"). Declarations
// are plain data over zod schemas: the route glue (app/http/api-route.server.ts), the OpenAPI
// description, the access-matrix and bad-input tests and the CLI's client all read them.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Schema = z.ZodTypeAny;

/**
 * Who may call. `user` may name a permission of roles.ts (403 without it) and the input field
 * that names the store the call touches (404 when the viewer may not see that store, checked
 * before the handler runs). A `gateway` call's store is its token's.
 */
export type Access =
  | { readonly kind: 'public' }
  | { readonly kind: 'gateway' }
  | { readonly kind: 'user'; readonly permission?: Permission; readonly store?: string };

/** What an id field of the input names: the access matrix tries ids of things the caller may not see. */
export type Reference = 'store' | 'equipment' | 'diagram' | 'user' | 'usergroup' | 'storegroup' | 'company' | 'region' | 'prefecture';

/**
 * How the body is sent: `json-or-form` is read by its Content-Type (the specification's calls
 * use both), `form` only as a form (the OAuth token call), `json-gzip` as JSON that may be
 * gzipped (Content-Encoding), `multipart` as multipart/form-data with files.
 */
export type BodyEncoding = 'json-or-form' | 'form' | 'json-gzip' | 'multipart';

export type Input =
  | {
      readonly in: 'query';
      /** A factory when the schema's defaults depend on the clock (the alert history's default range). */
      readonly schema: Schema | ((now: Date) => Schema);
    }
  | {
      readonly in: 'body';
      readonly encoding: BodyEncoding;
      readonly schema: Schema;
      /** The largest body taken (for json-gzip, once unpacked); larger is 413. */
      readonly maxBytes?: number;
      /** The multipart field that carries the files. */
      readonly files?: string;
      /** What the description shows when the schema cannot say it (a schema that takes unknown and transforms). */
      readonly documented?: Schema;
    };

/** The success answer: JSON with its schema, or a file of one of the content types. */
export type Answer =
  | { readonly statuses: readonly number[]; readonly json: Schema; readonly description: string }
  | { readonly statuses: readonly number[]; readonly file: readonly string[]; readonly description: string };

/** A failure answer particular to the call (the ones its access and input imply are added by errorAnswersOf). */
export interface ErrorAnswer {
  readonly status: number;
  readonly error: string;
  readonly when: string;
}

export interface ApiCall {
  /** camelCase, unique: the OpenAPI operationId and the CLI client's method name. */
  readonly id: string;
  readonly method: HttpMethod;
  /** The full path, e.g. /on-reco/v1/stores/pin. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly access: Access;
  readonly input?: Input;
  readonly answer: Answer;
  readonly errors?: readonly ErrorAnswer[];
  /** Input fields that carry ids of other things (array fields hold several). */
  readonly references?: Readonly<Record<string, Reference>>;
  /** Cache-Control of the success answer, when it may be cached. */
  readonly cacheControl?: string;
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A call's method and full path as the specification and the route comments write them: `GET /on-reco/v1/stores/pin`. */
export type Route = `${HttpMethod} /on-reco/${string}`;

/** What a declaration gives besides its id and route; without `access`, any signed-in user may call. */
export type CallDetails = Omit<ApiCall, 'id' | 'method' | 'path' | 'access'> & { readonly access?: Access };

type MethodOf<R extends Route> = R extends `${infer M extends HttpMethod} ${string}` ? M : never;
type AccessOf<D extends CallDetails> = D extends { readonly access: infer A extends Access } ? A : { readonly kind: 'user' };
export type DeclaredCall<R extends Route, D extends CallDetails> = Omit<D, 'access'> & {
  readonly id: string;
  readonly method: MethodOf<R>;
  readonly path: string;
  readonly access: AccessOf<D>;
};

/**
 * Declares a call: its id (exported under that name; the registry checks it), its route and the
 * rest. Keeps the literal types, so a handler's input and answer are typed from the declaration.
 *   export const getStore = defineCall('getStore', 'GET /on-reco/v1/stores', {
 *     summary: 'The store info', access: { kind: 'user', store: 'store_id' },
 *     input: query(StoreIdSchema), answer: jsonAnswer(StoreInfoAnswerSchema, 'The store info of 000 §3.') });
 */
export function defineCall<const R extends Route, const D extends CallDetails>(id: string, route: R, details: D): DeclaredCall<R, D> {
  const [method, path] = route.split(' ') as [MethodOf<R>, string];
  if (!METHODS.includes(method) || !path.startsWith('/on-reco/')) throw new Error(`${id}: "${route}" is not a METHOD /on-reco/… route`);
  return { id, method, path, access: { kind: 'user' }, ...details } as unknown as DeclaredCall<R, D>;
}

/** A query-string input (GET calls). */
export const query = <const S extends Schema | ((now: Date) => Schema)>(schema: S) => ({ in: 'query', schema }) as const;

type BodyOptions = Partial<Pick<Extract<Input, { in: 'body' }>, 'encoding' | 'maxBytes' | 'files' | 'documented'>>;

/** A body input, JSON or a form by its Content-Type unless another encoding is given. */
export const body = <const S extends Schema>(schema: S, options: BodyOptions = {}) => ({ in: 'body' as const, encoding: 'json-or-form' as BodyEncoding, schema, ...options });

/** A JSON success answer, 200 unless other statuses are given (the first is the one a handler's data is sent with). */
export const jsonAnswer = <const S extends Schema>(json: S, description: string, statuses: readonly number[] = [200]) => ({ statuses, json, description });

/** A file success answer (200) of one of the content types. */
export const fileAnswer = (file: readonly string[], description: string) => ({ statuses: [200], file, description });

/** The body of every failure: `fields` names each bad field and its reason. */
export const ApiErrorSchema = z.object({
  error: z.string(),
  error_description: z.string(),
  fields: z.record(z.string()).optional(),
});

/** The Content-Types a body is read from where another is 415 (the token call's form reads anything else as empty, an upload's multipart is 400). */
const BODY_TYPES: Partial<Record<BodyEncoding, string>> = {
  'json-or-form': 'application/json, application/x-www-form-urlencoded or multipart/form-data',
  'json-gzip': 'application/json (Content-Encoding gzip allowed)',
};

/** The failures every call of its kind may answer, then the call's own; one entry per status and error. */
export function errorAnswersOf(call: ApiCall): ErrorAnswer[] {
  const implied: ErrorAnswer[] = [];
  if (call.input) implied.push({ status: 400, error: 'invalid_request', when: 'the input is malformed; fields names each bad field' });
  if (call.input?.in === 'body' && BODY_TYPES[call.input.encoding]) {
    implied.push({ status: 415, error: 'unsupported_media_type', when: `the body is not ${BODY_TYPES[call.input.encoding]}` });
  }
  if (call.access.kind !== 'public') implied.push({ status: 401, error: 'invalid_token', when: `no valid ${call.access.kind === 'gateway' ? 'gateway' : 'user'} bearer token` });
  if (call.access.kind === 'user' && call.access.permission) implied.push({ status: 403, error: 'forbidden', when: `the user's authority lacks ${call.access.permission}` });
  if (call.access.kind === 'user' && call.access.store) implied.push({ status: 404, error: 'not_found', when: `the store named by ${call.access.store} does not exist or is not the user's` });
  implied.push({ status: 405, error: 'method_not_allowed', when: 'another method than the declared ones' });
  const all = [...implied, ...(call.errors ?? [])];
  return all.filter((answer, index) => all.findIndex((other) => other.status === answer.status && other.error === answer.error) === index);
}

type SchemaOf<S> = S extends (now: Date) => infer T ? T : S;

/** The parsed input a handler receives (undefined when the call takes none). */
export type InputOf<C extends ApiCall> = C['input'] extends { schema: infer S } ? (SchemaOf<S> extends Schema ? z.output<SchemaOf<S>> : never) : undefined;

/** What a handler may return instead of a Response: data matching the declared JSON answer. */
export type AnswerOf<C extends ApiCall> = C['answer'] extends { json: infer S extends Schema } ? z.input<S> : never;
