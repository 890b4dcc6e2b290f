import { exchangeStoreGateway } from '~/domain/api/stores';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { storeWriteError } from '~/http/failures.server';
import { exchangeGateway } from '~/services/store-gateway.server';

// POST /v1/stores/gateway {store_id, gateway_info} → {store_id, gateway_info, working_state}: the
// store management page's gateway exchange, for the API and the CLI (`onreco gateways exchange`).
export const action = apiAction(exchangeStoreGateway, async ({ viewer, input, db, now }) => {
  const result = await exchangeGateway(db, viewer, input.store_id, input.gateway_info, now);
  if (!result.ok) return storeWriteError(result, input.store_id);
  return { store_id: input.store_id, gateway_info: input.gateway_info, working_state: result.workingState };
});

export const loader = apiNotAllowed(exchangeStoreGateway.path);
