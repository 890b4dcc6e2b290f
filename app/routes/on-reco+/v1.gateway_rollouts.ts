import { listGatewayRollouts, startGatewayRollout } from '~/domain/api/gateway';
import { apiError } from '~/http/access.server';
import { apiAction, apiLoader } from '~/http/api-route.server';
import { rolloutAnswer } from '~/http/gateway-releases.server';
import { listRolloutProgress } from '~/models/gateway-releases.server';
import { startRollout } from '~/services/gateway-releases.server';

// GET /v1/gateway_rollouts: each group's rollout and its progress. POST: set a group's version.
export const loader = apiLoader(listGatewayRollouts, async ({ db }) => (await listRolloutProgress(db)).map(rolloutAnswer));

export const action = apiAction(startGatewayRollout, async ({ viewer, input, db, now }) => {
  const result = await startRollout(db, viewer, input, now);
  if (!result.ok) throw apiError(result.status, result.error, result.message);
  return { storegroup_id: input.storegroup_id, version: input.version };
});
