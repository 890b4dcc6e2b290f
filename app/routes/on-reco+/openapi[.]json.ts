import { getOpenApi } from '~/domain/api/openapi';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { openApiDocument } from '~/http/openapi.server';

// GET /on-reco/openapi.json: the OpenAPI 3.1 description generated from the API registry
// (public, cacheable; built once per process).
let document: ReturnType<typeof openApiDocument> | undefined;

export const loader = apiLoader(getOpenApi, () => (document ??= openApiDocument()));

export const action = apiNotAllowed(getOpenApi.path);
