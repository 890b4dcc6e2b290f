import { readMeasurements as measurementsCall } from '~/domain/api/sensors';
import { resolveMeasurementRange } from '~/domain/sensor-schemas';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { invalidRequest } from '~/http/api.server';
import { readMeasurements } from '~/models/measurements.server';

// GET /v1/equipments/measurement?equipment_id&since&until&convert_def: status, alerts and the
// readings of the range (at most 31 days), or the latest reading when no range is given.
export const loader = apiLoader(measurementsCall, async ({ viewer, input, db, now }) => {
  const resolved = resolveMeasurementRange(input, now);
  if (!resolved.ok) throw invalidRequest(resolved.fields);
  const result = await readMeasurements(db, viewer, { equipmentId: input.equipment_id, range: resolved.range, convertDef: input.convert_def });
  if (!result) throw apiError(404, 'not_found', `Equipment ${input.equipment_id} was not found.`);
  return result;
});

export const action = apiNotAllowed(measurementsCall.path);
