import { saveSensorPositions as positionsCall } from '~/domain/api/diagrams';
import { MAX_PLACED_SENSORS } from '~/domain/diagram';
import { apiError } from '~/http/access.server';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { invalidRequest } from '~/http/api.server';
import { saveSensorPositions } from '~/services/diagrams.server';

// POST /v1/equipments/position {equipment_id, position_x, position_y} ((0, 0) removes the
// sensor from the diagram), or an array of them saved in one transaction. Positions are map
// units (x 0-1200, y 0-500). A sensor the caller may not see is 404; a 21st placed sensor 400.
export const action = apiAction(positionsCall, async ({ viewer, input: positions, db }) => {
  const result = await saveSensorPositions(db, viewer, positions);
  if (!result.ok && result.reason === 'not_found') return apiError(404, 'not_found', `Sensor ${result.equipmentIds.join(', ')} was not found.`);
  if (!result.ok) return invalidRequest({ position_x: `at most ${MAX_PLACED_SENSORS} sensors can be placed on a store's diagram (store ${result.storeId} would have ${result.placed})` });
  return { saved: result.saved, positions };
});

export const loader = apiNotAllowed(positionsCall.path);
