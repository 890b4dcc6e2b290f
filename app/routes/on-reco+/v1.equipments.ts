import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { EquipmentQuerySchema } from '~/domain/sensor-schemas';
import { getEquipment } from '~/models/sensors.server';
import { apiError, requireApiUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';

// GET /v1/equipments?equipment_id: the sensor's detail; 404 when it is not in a visible store.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const { equipment_id } = parseOrThrow(EquipmentQuerySchema, searchParamsOf(request));
  const equipment = await getEquipment(getDb(), viewer, equipment_id);
  if (!equipment) throw apiError(404, 'not_found', `Equipment ${equipment_id} was not found.`);
  return json(equipment);
}
