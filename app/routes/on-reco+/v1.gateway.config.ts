import { getGatewayConfig as configCall } from '~/domain/api/gateway';
import { toCompactDate } from '~/domain/japan-time';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { getReleaseOffer } from '~/models/gateway-releases.server';
import { getGatewayConfig } from '~/models/gateways.server';

// GET /v1/gateway/config (gateway token): the store's sensors, the upload settings and the release to run.
export const loader = apiLoader(configCall, async ({ storeId, db, now }) => {
  const today = toCompactDate(now).replace(/(\d{4})(\d{2})(\d{2})/, '$1-$2-$3');
  const [config, release] = await Promise.all([getGatewayConfig(db, storeId, today), getReleaseOffer(db, storeId)]);
  return release ? { ...config, gateway_release: release } : config;
});

export const action = apiNotAllowed(configCall.path);
