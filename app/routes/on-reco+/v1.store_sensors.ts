import { listStoreSensors as storeSensorsCall } from '~/domain/api/sensors';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listStoreSensors } from '~/models/sensors.server';

// GET /v1/store_sensors?store_id&include_hidden: the store's name and sensors, with their live
// state (extension, docs/decisions/020-sensor-views.md). 404 for a store the viewer may not see.
export const loader = apiLoader(storeSensorsCall, async ({ viewer, input, db }) => {
  const store = await listStoreSensors(db, viewer, { storeId: input.store_id, includeHidden: input.include_hidden });
  if (!store) throw apiError(404, 'not_found', `Store ${input.store_id} was not found.`);
  return store;
});

export const action = apiNotAllowed(storeSensorsCall.path);
