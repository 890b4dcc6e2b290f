import { postHealth } from '~/domain/api/gateway';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { recordGatewayHealth } from '~/services/gateway-health.server';

// POST /v1/gateway/health (gateway token): the gateway's health report; the token names the store.
export const action = apiAction(postHealth, async ({ storeId, input, db, now }) => {
  const outcome = await recordGatewayHealth(db, storeId, input, now);
  return { stored: outcome.ok };
});

export const loader = apiNotAllowed(postHealth.path);
