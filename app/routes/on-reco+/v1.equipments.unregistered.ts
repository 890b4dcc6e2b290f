import { listUnregisteredSensors as listCall } from '~/domain/api/sensor-settings';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listUnregisteredSensors } from '~/models/sensor-settings.server';

// GET /v1/equipments/unregistered?store_id: the BLE sensors the store's gateway hears that are not its sensors.
export const loader = apiLoader(listCall, async ({ viewer, input, db }) => {
  const sensors = await listUnregisteredSensors(db, viewer, input.store_id);
  if (!sensors) throw apiError(404, 'not_found', `Store ${input.store_id} was not found.`);
  return { store_id: input.store_id, sensors };
});

export const action = apiNotAllowed(listCall.path);
