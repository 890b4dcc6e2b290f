import { z } from 'zod';
import { defineCall } from './call';

export const getOpenApi = defineCall({
  id: 'getOpenApi',
  method: 'GET',
  path: '/on-reco/openapi.json',
  summary: 'This description (OpenAPI 3.1), generated from the API registry',
  access: { kind: 'public' },
  answer: { statuses: [200], json: z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }), paths: z.record(z.unknown()).optional() }).passthrough(), description: 'The OpenAPI document.' },
  cacheControl: 'public, max-age=300',
});
