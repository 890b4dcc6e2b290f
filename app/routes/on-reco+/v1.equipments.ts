import { json } from '@remix-run/node';
import { getEquipment as equipmentCall } from '~/domain/api/sensors';
import { saveEquipment as saveCall } from '~/domain/api/sensor-settings';
import { apiError } from '~/http/access.server';
import { apiAction, apiLoader } from '~/http/api-route.server';
import { sensorSaveError } from '~/http/sensor-save.server';
import { getSensorDetail } from '~/models/sensor-settings.server';
import { saveSensor } from '~/services/sensor-settings.server';

// GET /v1/equipments?equipment_id: the sensor's detail (000 §3 and 001 §3 "Sensor detail");
// 404 when it is not in a visible store.
export const loader = apiLoader(equipmentCall, async ({ viewer, input, db }) => {
  const equipment = await getSensorDetail(db, viewer, input.equipment_id);
  if (!equipment) throw apiError(404, 'not_found', `Equipment ${input.equipment_id} was not found.`);
  return equipment;
});

// POST /v1/equipments: register (no equipment_id) or update (equipment_id + updated_at) a sensor.
export const action = apiAction(saveCall, async ({ viewer, input, db, now }) => {
  const result = await saveSensor(db, viewer, input, now);
  if (!result.ok) return sensorSaveError(result, input);
  return json({ store_id: input.store_id, equipment_id: result.equipmentId, updated_at: result.updatedAt }, { status: result.created ? 201 : 200 });
});
