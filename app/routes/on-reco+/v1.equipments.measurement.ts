import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { MeasurementQuerySchema, resolveMeasurementRange } from '~/domain/sensor-schemas';
import { readMeasurements } from '~/models/measurements.server';
import { apiError, requireApiUser } from '~/http/access.server';
import { invalidRequest, parseOrThrow, searchParamsOf } from '~/http/api.server';

// GET /v1/equipments/measurement?equipment_id&since&until&convert_def: status, alerts and the
// readings of the range (at most 31 days), or the latest reading when no range is given.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const query = parseOrThrow(MeasurementQuerySchema, searchParamsOf(request));
  const resolved = resolveMeasurementRange(query, new Date());
  if (!resolved.ok) throw invalidRequest(resolved.fields);
  const result = await readMeasurements(getDb(), viewer, { equipmentId: query.equipment_id, range: resolved.range, convertDef: query.convert_def });
  if (!result) throw apiError(404, 'not_found', `Equipment ${query.equipment_id} was not found.`);
  return json(result);
}
