import { type ActionFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { MAX_PLACED_SENSORS, SensorPositionsSchema } from '~/domain/diagram';
import { saveSensorPositions } from '~/services/diagrams.server';
import { apiError, requireApiRole } from '~/http/access.server';
import { bodyOf, invalidRequest, methodNotAllowed, parseOrThrow } from '~/http/api.server';

// POST /v1/equipments/position {equipment_id, position_x, position_y} ((0, 0) removes the
// sensor from the diagram), or an array of them saved in one transaction. Positions are map
// units (x 0-1200, y 0-500). A sensor the caller may not see is 404; a 21st placed sensor 400.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const viewer = await requireApiRole(request, 'editDiagram');
  const positions = parseOrThrow(SensorPositionsSchema, await bodyOf(request));
  const result = await saveSensorPositions(getDb(), viewer, positions);
  if (!result.ok && result.reason === 'not_found') return apiError(404, 'not_found', `Sensor ${result.equipmentIds.join(', ')} was not found.`);
  if (!result.ok) return invalidRequest({ position_x: `at most ${MAX_PLACED_SENSORS} sensors can be placed on a store's diagram (store ${result.storeId} would have ${result.placed})` });
  return json({ saved: result.saved, positions });
}

export const loader = () => methodNotAllowed(['POST']);
