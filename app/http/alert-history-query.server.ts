import type { Db } from '~/db/db.server';
import type { AlertHistoryQuery } from '~/domain/alert-history';
import { resolveApiFilter } from '~/models/alert-history.server';
import type { Viewer } from '~/models/users.server';
import { apiError } from './access.server';

/**
 * The filter a GET of the alert history (the list or its CSV) resolves to; 404 when the store
 * or a sensor is not the viewer's.
 */
export async function requireAlertHistoryFilter(db: Db, viewer: Viewer, query: AlertHistoryQuery) {
  const filter = await resolveApiFilter(db, viewer, query);
  if (!filter) throw apiError(404, 'not_found', 'No such store or sensor.');
  return filter;
}
