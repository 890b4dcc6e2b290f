import { pauseGatewayRollout } from '~/domain/api/gateway';
import { apiError } from '~/http/access.server';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { pauseRollout } from '~/services/gateway-releases.server';

// POST /v1/gateway_rollouts/pause {storegroup_id, paused}: administrators.
export const action = apiAction(pauseGatewayRollout, async ({ viewer, input, db, now }) => {
  const result = await pauseRollout(db, viewer, input.storegroup_id, input.paused, now);
  if (!result.ok) throw apiError(result.status, result.error, result.message);
  return { storegroup_id: input.storegroup_id, paused: input.paused };
});

export const loader = apiNotAllowed(pauseGatewayRollout.path);
