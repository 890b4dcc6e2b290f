import { getDb } from '~/db/db.server';
import { alertHistoryQuerySchema } from '~/domain/alert-history';
import { resolveApiFilter } from '~/models/alert-history.server';
import { apiError, requireApiUser } from './access.server';
import { parseOrThrow, searchParamsOf } from './api.server';

/**
 * What a GET of the alert history (the list or its CSV) asks for: the viewer, the query and the
 * filter it resolves to; 404 when the store or a sensor is not the viewer's.
 */
export async function requireAlertHistoryQuery(request: Request) {
  const viewer = await requireApiUser(request);
  const query = parseOrThrow(alertHistoryQuerySchema(new Date()), searchParamsOf(request));
  const db = getDb();
  const filter = await resolveApiFilter(db, viewer, query);
  if (!filter) throw apiError(404, 'not_found', 'No such store or sensor.');
  return { db, viewer, query, filter };
}
