import { pairGateway as pairCall } from '~/domain/api/gateway';
import { apiError } from '~/http/access.server';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { retryLater } from '~/http/failures.server';
import { clientOriginOf } from '~/http/load-context.server';
import { pairGateway } from '~/services/gateway-pairing.server';

// POST /v1/gateway/pair {gateway_info, pin_code} → {gateway_token, store_id}.
export const action = apiAction(pairCall, async ({ input, db, now, loadContext }) => {
  const result = await pairGateway(db, { gatewayInfo: input.gateway_info, pinCode: input.pin_code }, clientOriginOf(loadContext), now);
  if (result.ok) return { gateway_token: result.token, store_id: result.storeId };
  if (result.reason === 'throttled') return retryLater('too_many_attempts', 'Too many wrong PINs; try again later.', result.retryAfterSeconds);
  return apiError(400, 'invalid_grant', 'The PIN is not the current PIN of the store of this gateway.');
});

export const loader = apiNotAllowed(pairCall.path);
