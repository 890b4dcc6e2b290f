import { removeGateway as removalCall } from '~/domain/api/stores';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { storeWriteError } from '~/http/failures.server';
import { removeGateway } from '~/services/store-gateway.server';

// POST /v1/equipments/removal {store_id, gateway_info} → {store_id, gateway_info, working_state: 2}:
// removal (撤去) of an operating store's gateway. gateway_info "" means the store's gateway,
// whatever it is; a non-empty value must be it (409 otherwise). Administrators and maintenance.
export const action = apiAction(removalCall, async ({ viewer, input, db, now }) => {
  const result = await removeGateway(db, viewer, input.store_id, input.gateway_info, now);
  if (!result.ok) return storeWriteError(result, input.store_id);
  return { store_id: input.store_id, gateway_info: result.gatewayInfo, working_state: 2 as const };
});

export const loader = apiNotAllowed(removalCall.path);
