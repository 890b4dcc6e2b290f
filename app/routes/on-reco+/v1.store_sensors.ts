import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { StoreSensorsQuerySchema } from '~/domain/sensor-schemas';
import { listStoreSensors } from '~/models/sensors.server';
import { apiError, requireApiUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';

// GET /v1/store_sensors?store_id&include_hidden: the store's name and sensors, with their live
// state (extension, docs/decisions/020-sensor-views.md). 404 for a store the viewer may not see.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const query = parseOrThrow(StoreSensorsQuerySchema, searchParamsOf(request));
  const store = await listStoreSensors(getDb(), viewer, { storeId: query.store_id, includeHidden: query.include_hidden });
  if (!store) throw apiError(404, 'not_found', `Store ${query.store_id} was not found.`);
  return json(store);
}
