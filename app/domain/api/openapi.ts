import { z } from 'zod';
import { defineCall, jsonAnswer } from './call';

export const getOpenApi = defineCall('getOpenApi', 'GET /on-reco/openapi.json', {
  summary: 'This description (OpenAPI 3.1), generated from the API registry',
  access: { kind: 'public' },
  answer: jsonAnswer(z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }), paths: z.record(z.unknown()).optional() }).passthrough(), 'The OpenAPI document.'),
  cacheControl: 'public, max-age=300',
});
