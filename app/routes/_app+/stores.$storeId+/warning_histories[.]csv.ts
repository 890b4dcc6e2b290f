import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { ALERT_HISTORY_CSV_FILENAME, alertHistoryPageQuerySchema } from '~/domain/alert-history';
import { csvDownloadHeaders } from '~/domain/csv';
import { alertHistoryCsv, resolvePageFilter } from '~/models/alert-history.server';
import { requireStoreUser } from '~/http/access.server';
import { fieldErrors } from '~/http/api.server';

// The console's CSV link of /stores/{store_id}/warning_histories (session cookie): the same
// file as GET /v1/alert_history/csv, for the page's category and dates.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const parsed = alertHistoryPageQuerySchema(new Date()).safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return json({ error: 'invalid_request', fields: fieldErrors(parsed.error) }, { status: 400 });
  const db = getDb();
  const { filter } = await resolvePageFilter(db, viewer, storeId, parsed.data);
  const csv = await alertHistoryCsv(db, viewer, filter, viewer.language);
  return new Response(csv, { headers: csvDownloadHeaders(ALERT_HISTORY_CSV_FILENAME) });
}
