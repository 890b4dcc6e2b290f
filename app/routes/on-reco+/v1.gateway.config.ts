import { getGatewayConfig as configCall } from '~/domain/api/gateway';
import { toCompactDate } from '~/domain/japan-time';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { getGatewayConfig } from '~/models/gateways.server';

// GET /v1/gateway/config (gateway token): the store's sensors and the upload settings.
export const loader = apiLoader(configCall, ({ storeId, db, now }) => {
  const today = toCompactDate(now).replace(/(\d{4})(\d{2})(\d{2})/, '$1-$2-$3');
  return getGatewayConfig(db, storeId, today);
});

export const action = apiNotAllowed(configCall.path);
