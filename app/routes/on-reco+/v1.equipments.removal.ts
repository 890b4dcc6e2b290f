import { type ActionFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { RemovalRequestSchema } from '~/domain/store-schemas';
import { requireApiRole } from '~/http/access.server';
import { bodyOf, methodNotAllowed, parseOrThrow } from '~/http/api.server';
import { storeWriteError } from '~/http/failures.server';
import { removeGateway } from '~/services/store-gateway.server';

// POST /v1/equipments/removal {store_id, gateway_info} → {store_id, gateway_info, working_state: 2}:
// removal (撤去) of an operating store's gateway. gateway_info "" means the store's gateway,
// whatever it is; a non-empty value must be it (409 otherwise). Administrators and maintenance.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const viewer = await requireApiRole(request, 'storeManagement');
  const input = parseOrThrow(RemovalRequestSchema, await bodyOf(request));
  const db = getDb();
  const result = await removeGateway(db, viewer, input.store_id, input.gateway_info, new Date());
  if (!result.ok) return storeWriteError(result, input.store_id);
  return json({ store_id: input.store_id, gateway_info: result.gatewayInfo, working_state: 2 });
}

export const loader = () => methodNotAllowed(['POST']);
