import { type ActionFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { PairRequestSchema } from '~/domain/gateway-schemas';
import { PAIR_THROTTLE_MINUTES, pairGateway } from '~/models/gateways.server';
import { apiError } from '~/http/access.server';
import { bodyOf, methodNotAllowed, parseOrThrow } from '~/http/api.server';

// POST /v1/gateway/pair {gateway_info, pin_code} → {gateway_token, store_id}.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const input = parseOrThrow(PairRequestSchema, await bodyOf(request));
  const client = request.headers.get('X-Forwarded-For')?.split(',')[0]?.trim().slice(0, 64) ?? null;
  const result = await pairGateway(getDb(), { gatewayInfo: input.gateway_info, pinCode: input.pin_code, client }, new Date());
  if (result.ok) return json({ gateway_token: result.token, store_id: result.storeId });
  if (result.reason === 'throttled') {
    const retryAfter = PAIR_THROTTLE_MINUTES * 60;
    return json({ error: 'too_many_attempts', error_description: 'Too many wrong PINs for this gateway; try again later.' }, { status: 429, headers: { 'Retry-After': String(retryAfter) } });
  }
  return apiError(400, 'invalid_grant', 'The PIN is not the current PIN of the store of this gateway.');
}
