import { getEquipment as equipmentCall } from '~/domain/api/sensors';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { getEquipment } from '~/models/sensors.server';

// GET /v1/equipments?equipment_id: the sensor's detail; 404 when it is not in a visible store.
export const loader = apiLoader(equipmentCall, async ({ viewer, input, db }) => {
  const equipment = await getEquipment(db, viewer, input.equipment_id);
  if (!equipment) throw apiError(404, 'not_found', `Equipment ${input.equipment_id} was not found.`);
  return equipment;
});

export const action = apiNotAllowed(equipmentCall.path);
