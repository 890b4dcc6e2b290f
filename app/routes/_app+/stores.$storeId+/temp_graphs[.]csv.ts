import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { MEASUREMENT_CSV_RESPONSE_HEADERS, graphPeriod } from '~/domain/graph';
import { GraphCsvQuerySchema } from '~/domain/graph-schemas';
import { csvByteStream, measurementCsvChunks, resolveCsvSensors } from '~/models/graph.server';
import { requireStoreUser } from '~/http/access.server';
import { fieldErrors } from '~/http/api.server';
import { retentionNotice } from '~/domain/retention';
import { retentionPolicy } from '~/services/retention.server';

// The CSV link of a graph panel (session cookie): the same file as GET
// /v1/equipments/measurement/csv, for the panel's checked sensors (of this store) and period;
// a period beyond the readings' retention says so under the header (the API's file does not).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const parsed = GraphCsvQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return json({ error: 'invalid_request', fields: fieldErrors(parsed.error) }, { status: 400 });
  const db = getDb();
  const sensors = await resolveCsvSensors(db, viewer, parsed.data.equipment_id, storeId);
  if (!sensors) return json({ error: 'not_found', error_description: 'No such sensor in this store.' }, { status: 404 });
  const period = graphPeriod(parsed.data.unit, parsed.data.start_date);
  const notice = retentionNotice({ from: period.since, to: period.until }, retentionPolicy(new Date()).readings);
  const chunks = measurementCsvChunks(db, viewer, sensors, { since: period.since, until: new Date(period.until.getTime() - 1) }, notice?.text);
  return new Response(csvByteStream(chunks), { headers: MEASUREMENT_CSV_RESPONSE_HEADERS });
}
