import type { LoaderFunctionArgs } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { MEASUREMENT_CSV_RESPONSE_HEADERS } from '~/domain/graph';
import { MeasurementCsvQuerySchema } from '~/domain/graph-schemas';
import { csvByteStream, measurementCsvChunks, resolveCsvSensors } from '~/models/graph.server';
import { apiError, requireApiUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';

// GET /v1/equipments/measurement/csv?equipment_id=1,2&since&until (YYYYMMDDHHmmss, Japan time,
// both inclusive, at most 31 days): equipments_measurement.csv, UTF-8 with a BOM, one row per
// reading, sensor by sensor in the order asked. A sensor the caller may not see is 404.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const query = parseOrThrow(MeasurementCsvQuerySchema, searchParamsOf(request));
  const db = getDb();
  const sensors = await resolveCsvSensors(db, viewer, query.equipment_id);
  if (!sensors) throw apiError(404, 'not_found', `Equipment ${query.equipment_id.join(',')} was not found.`);
  const chunks = measurementCsvChunks(db, viewer, sensors, { since: query.since, until: query.until });
  return new Response(csvByteStream(chunks), { headers: MEASUREMENT_CSV_RESPONSE_HEADERS });
}
