import { ALERT_HISTORY_CSV_FILENAME } from '~/domain/alert-history';
import { alertHistoryCsv } from '~/domain/api/alerts';
import { csvDownloadHeaders } from '~/domain/csv';
import { requireAlertHistoryFilter } from '~/http/alert-history-query.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { alertHistoryCsv as alertHistoryCsvText } from '~/models/alert-history.server';

// GET /v1/alert_history/csv with the list's filters (paging ignored): alert_history.csv,
// UTF-8 with a BOM, newest first.
export const loader = apiLoader(alertHistoryCsv, async ({ viewer, input, db }) => {
  const filter = await requireAlertHistoryFilter(db, viewer, input);
  const csv = await alertHistoryCsvText(db, viewer, filter, viewer.language);
  return new Response(csv, { headers: csvDownloadHeaders(ALERT_HISTORY_CSV_FILENAME) });
});

export const action = apiNotAllowed(alertHistoryCsv.path);
