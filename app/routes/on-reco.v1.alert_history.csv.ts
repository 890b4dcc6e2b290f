import type { LoaderFunctionArgs } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { ALERT_HISTORY_CSV_FILENAME, alertHistoryQuerySchema } from '~/domain/alert-history';
import { csvDownloadHeaders } from '~/domain/csv';
import { alertHistoryCsv, resolveApiFilter } from '~/models/alert-history.server';
import { apiError, requireApiUser } from '~/services/access.server';
import { parseOrThrow, searchParamsOf } from '~/services/api.server';

// GET /v1/alert_history/csv with the list's filters (paging ignored): alert_history.csv,
// UTF-8 with a BOM, newest first.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const query = parseOrThrow(alertHistoryQuerySchema(new Date()), searchParamsOf(request));
  const db = getDb();
  const filter = await resolveApiFilter(db, viewer, query);
  if (!filter) throw apiError(404, 'not_found', 'No such store or sensor.');
  const csv = await alertHistoryCsv(db, viewer, filter, viewer.language);
  return new Response(csv, { headers: csvDownloadHeaders(ALERT_HISTORY_CSV_FILENAME) });
}
