import { listEquipments as listCall } from '~/domain/api/sensor-settings';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listSettingsSensors } from '~/models/sensor-settings.server';

// GET /v1/equipments/list?store_id: every sensor of the store with its settings (001 §3).
export const loader = apiLoader(listCall, async ({ viewer, input, db }) => {
  const list = await listSettingsSensors(db, viewer, input.store_id);
  if (!list) throw apiError(404, 'not_found', `Store ${input.store_id} was not found.`);
  return list;
});

export const action = apiNotAllowed(listCall.path);
