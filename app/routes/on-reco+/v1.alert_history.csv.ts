import type { LoaderFunctionArgs } from '@remix-run/node';
import { ALERT_HISTORY_CSV_FILENAME } from '~/domain/alert-history';
import { csvDownloadHeaders } from '~/domain/csv';
import { alertHistoryCsv } from '~/models/alert-history.server';
import { requireAlertHistoryQuery } from '~/http/alert-history-query.server';

// GET /v1/alert_history/csv with the list's filters (paging ignored): alert_history.csv,
// UTF-8 with a BOM, newest first.
export async function loader({ request }: LoaderFunctionArgs) {
  const { db, viewer, filter } = await requireAlertHistoryQuery(request);
  const csv = await alertHistoryCsv(db, viewer, filter, viewer.language);
  return new Response(csv, { headers: csvDownloadHeaders(ALERT_HISTORY_CSV_FILENAME) });
}
