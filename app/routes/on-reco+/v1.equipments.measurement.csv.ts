import { measurementCsv } from '~/domain/api/sensors';
import { MEASUREMENT_CSV_RESPONSE_HEADERS } from '~/domain/graph';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { csvByteStream, measurementCsvChunks, resolveCsvSensors } from '~/models/graph.server';

// GET /v1/equipments/measurement/csv?equipment_id=1,2&since&until (YYYYMMDDHHmmss, Japan time,
// both inclusive, at most 31 days): equipments_measurement.csv, UTF-8 with a BOM, one row per
// reading, sensor by sensor in the order asked. A sensor the caller may not see is 404.
export const loader = apiLoader(measurementCsv, async ({ viewer, input, db }) => {
  const sensors = await resolveCsvSensors(db, viewer, input.equipment_id);
  if (!sensors) throw apiError(404, 'not_found', `Equipment ${input.equipment_id.join(',')} was not found.`);
  const chunks = measurementCsvChunks(db, viewer, sensors, { since: input.since, until: input.until });
  return new Response(csvByteStream(chunks), { headers: MEASUREMENT_CSV_RESPONSE_HEADERS });
});

export const action = apiNotAllowed(measurementCsv.path);
