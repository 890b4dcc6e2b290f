import { json } from '@remix-run/node';
import { pairGateway as pairCall } from '~/domain/api/gateway';
import { apiError } from '~/http/access.server';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { PAIR_THROTTLE_MINUTES, pairGateway } from '~/models/gateways.server';

// POST /v1/gateway/pair {gateway_info, pin_code} → {gateway_token, store_id}.
export const action = apiAction(pairCall, async ({ input, request, db, now }) => {
  const client = request.headers.get('X-Forwarded-For')?.split(',')[0]?.trim().slice(0, 64) ?? null;
  const result = await pairGateway(db, { gatewayInfo: input.gateway_info, pinCode: input.pin_code, client }, now);
  if (result.ok) return { gateway_token: result.token, store_id: result.storeId };
  if (result.reason === 'throttled') {
    const retryAfter = PAIR_THROTTLE_MINUTES * 60;
    return json({ error: 'too_many_attempts', error_description: 'Too many wrong PINs for this gateway; try again later.' }, { status: 429, headers: { 'Retry-After': String(retryAfter) } });
  }
  return apiError(400, 'invalid_grant', 'The PIN is not the current PIN of the store of this gateway.');
});

export const loader = apiNotAllowed(pairCall.path);
