import { getGatewayRelease } from '~/domain/api/gateway';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { getReleaseBundle } from '~/models/gateway-releases.server';

// GET /v1/gateway/release?version (gateway token): the bundle; the box checks its signature.
export const loader = apiLoader(getGatewayRelease, async ({ input, db }) => {
  const bundle = await getReleaseBundle(db, input.version);
  if (!bundle) throw apiError(404, 'not_found', `Release ${input.version} was not found.`);
  return new Response(new Uint8Array(bundle), { headers: { 'Content-Type': 'application/gzip', 'Content-Length': String(bundle.byteLength), 'Cache-Control': 'private, max-age=86400, immutable' } });
});

export const action = apiNotAllowed(getGatewayRelease.path);
