import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { toCompactDate } from '~/domain/japan-time';
import { getGatewayConfig } from '~/models/gateways.server';
import { requireGatewayStore } from '~/http/access.server';

// GET /v1/gateway/config (gateway token): the store's sensors and the upload settings.
export async function loader({ request }: LoaderFunctionArgs) {
  const storeId = await requireGatewayStore(request);
  const today = toCompactDate(new Date()).replace(/(\d{4})(\d{2})(\d{2})/, '$1-$2-$3');
  return json(await getGatewayConfig(getDb(), storeId, today));
}
