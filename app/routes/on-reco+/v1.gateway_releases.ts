import { listGatewayReleases, uploadGatewayRelease } from '~/domain/api/gateway';
import { apiError } from '~/http/access.server';
import { apiAction, apiLoader } from '~/http/api-route.server';
import { listReleases } from '~/models/gateway-releases.server';
import { uploadRelease } from '~/services/gateway-releases.server';
import { releaseAnswer } from '~/http/gateway-releases.server';

// GET /v1/gateway_releases: the releases kept. POST: add one (bundle + signature); administrators.
export const loader = apiLoader(listGatewayReleases, async ({ db }) => (await listReleases(db)).map(releaseAnswer));

export const action = apiAction(uploadGatewayRelease, async ({ viewer, input, db, now }) => {
  const result = await uploadRelease(db, viewer, input, now);
  if (!result.ok) throw apiError(result.status, result.error, result.message);
  return releaseAnswer(result.release);
});
