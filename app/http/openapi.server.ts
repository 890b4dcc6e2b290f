import { extendZodWithOpenApi, OpenApiGeneratorV31, OpenAPIRegistry, type ResponseConfig, type RouteConfig, type ZodContentObject } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { API_AREAS, ApiErrorSchema, type ApiCall, type BodyEncoding, errorAnswersOf, type Schema } from '~/domain/api';
import { WEBHOOK_SIGNING_DESCRIPTION, WebhookPayloadSchema } from '~/domain/api/webhooks';

// The OpenAPI 3.1 description of /on-reco, generated from the API registry (app/domain/api/),
// served at GET /on-reco/openapi.json. Each call's access is in x-onreco-access and its
// referenced-id fields in x-onreco-references, so tools can read them as data.

extendZodWithOpenApi(z);

const SECURITY_SCHEMES = {
  userToken: { type: 'http', scheme: 'bearer', description: 'A user\'s access token from POST /on-reco/token.' },
  gatewayToken: { type: 'http', scheme: 'bearer', description: 'A gateway token from POST /on-reco/v1/gateway/pair; the call\'s store is the token\'s.' },
} as const;

const MEDIA_TYPES: Record<BodyEncoding, string[]> = {
  'json-or-form': ['application/json', 'application/x-www-form-urlencoded'],
  form: ['application/x-www-form-urlencoded'],
  'json-gzip': ['application/json'],
  multipart: ['multipart/form-data'],
};

const binary = { type: 'string', format: 'binary' } as const;

/** The query schema of a call whose schema depends on the clock: any date gives the same shape. */
const schemaOf = (schema: Schema | ((now: Date) => Schema)): Schema => (typeof schema === 'function' ? schema(new Date(0)) : schema);

function requestOf(call: ApiCall): RouteConfig['request'] {
  const input = call.input;
  if (!input) return undefined;
  if (input.in === 'query') return { query: schemaOf(input.schema) as NonNullable<RouteConfig['request']>['query'] };
  let schema = input.documented ?? input.schema;
  if (input.files && schema instanceof z.ZodObject) schema = schema.extend({ [input.files]: z.array(z.string().openapi(binary)) });
  const content: ZodContentObject = Object.fromEntries(MEDIA_TYPES[input.encoding].map((type) => [type, { schema }]));
  const gzip = input.encoding === 'json-gzip' ? ' May be sent with Content-Encoding: gzip.' : '';
  const limit = input.maxBytes ? ` At most ${input.maxBytes} bytes${gzip ? ' unpacked' : ''}.` : '';
  return { body: { required: true, content, description: `${gzip}${limit}`.trim() || undefined } };
}

function responsesOf(call: ApiCall, errorSchema: Schema): RouteConfig['responses'] {
  const answer = call.answer;
  const content: ZodContentObject = 'json' in answer ? { 'application/json': { schema: answer.json } } : Object.fromEntries(answer.file.map((type) => [type, { schema: binary }]));
  const responses: Record<string, ResponseConfig> = {};
  for (const status of answer.statuses) responses[status] = { description: answer.description, content };
  for (const error of errorAnswersOf(call)) {
    const key = String(error.status);
    const when = `${error.error}: ${error.when}`;
    responses[key] = responses[key] ? { ...responses[key], description: `${responses[key].description}; ${when}` } : { description: when, content: { 'application/json': { schema: errorSchema } } };
  }
  return responses;
}

function routeOf(call: ApiCall, area: string, errorSchema: Schema): RouteConfig {
  const security = call.access.kind === 'user' ? [{ userToken: [] }] : call.access.kind === 'gateway' ? [{ gatewayToken: [] }] : [];
  return {
    method: call.method.toLowerCase() as RouteConfig['method'],
    path: call.path,
    operationId: call.id,
    summary: call.summary,
    description: call.description,
    tags: [area],
    security,
    request: requestOf(call),
    responses: responsesOf(call, errorSchema),
    'x-onreco-access': call.access,
    ...(call.references ? { 'x-onreco-references': call.references } : {}),
  };
}

/** What On-Reco posts to a webhook endpoint of format json (OpenAPI 3.1 webhooks; docs/webhooks.md). */
function alertWebhook(): RouteConfig {
  return {
    method: 'post',
    path: 'alert',
    summary: 'An alert opened (an escalation step fired) or recovered, posted to a webhook endpoint',
    description: `${WEBHOOK_SIGNING_DESCRIPTION} Formats slack, teams and lineworks post those tools' incoming-webhook message shapes instead of this body, with the same headers.`,
    tags: ['webhooks'],
    request: {
      headers: z.object({
        'X-OnReco-Timestamp': z.string().openapi({ description: 'Unix seconds when this try was sent.' }),
        'X-OnReco-Signature': z.string().openapi({ description: 'v1=<hex HMAC-SHA256(secret, timestamp + "." + body)>' }),
        'Idempotency-Key': z.string().openapi({ description: 'The delivery\'s key: the same on every retry.' }),
        'X-OnReco-Event': z.string().openapi({ description: 'alert.opened or alert.recovered' }),
      }),
      body: { required: true, content: { 'application/json': { schema: WebhookPayloadSchema } } },
    },
    responses: { 200: { description: 'Any 2xx is delivered; anything else (or no answer in 10 s) is retried with backoff.' } },
  };
}

/** The whole description, from the registry. */
export function openApiDocument() {
  const registry = new OpenAPIRegistry();
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) registry.registerComponent('securitySchemes', name, scheme);
  const errorSchema = registry.register('ApiError', ApiErrorSchema);
  for (const [area, calls] of Object.entries(API_AREAS)) for (const call of calls) registry.registerPath(routeOf(call, area, errorSchema));
  registry.registerWebhook(alertWebhook());
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'On-Reco API', version: '1', description: 'Temperature monitoring for retail chains: the /on-reco calls of the console, the gateway and the CLI. Dates in YYYYMMDD… are Japan time.' },
  });
  // A plain JSON object (the generator's interface has no index signature).
  return document as typeof document & Record<string, unknown>;
}
