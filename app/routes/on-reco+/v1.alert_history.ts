import { type ActionFunctionArgs, type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { AlertStopSchema, toApiItem } from '~/domain/alert-history';
import { toCompactDateTimeMs } from '~/domain/japan-time';
import { listAlertHistory } from '~/models/alert-history.server';
import { apiError, requireApiUser } from '~/http/access.server';
import { requireAlertHistoryQuery } from '~/http/alert-history-query.server';
import { stopActiveAlert } from '~/services/alert-stop.server';
import { bodyOf, methodNotAllowed, parseOrThrow } from '~/http/api.server';

// GET /v1/alert_history?equipment_id=1,2|store_id=X&start_date=YYYYMMDD&end_date=YYYYMMDD&page_count=10&page_no=1
//   → {all_count, alerts}, newest first (docs/decisions/040-alert-history.md).
export async function loader({ request }: LoaderFunctionArgs) {
  const { db, viewer, query, filter } = await requireAlertHistoryQuery(request);
  const page = await listAlertHistory(db, viewer, filter, query);
  return json({ all_count: page.allCount, alerts: page.records.map(toApiItem) });
}

// POST /v1/alert_history {equipment_id, alert_id, comment?}: stops the pair's active alert.
// Any user who can see the store may stop; stopping a stopped alert changes nothing (200).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const viewer = await requireApiUser(request);
  const input = parseOrThrow(AlertStopSchema, await bodyOf(request));
  const outcome = await stopActiveAlert(getDb(), viewer, { equipmentId: input.equipment_id, alertId: input.alert_id, comment: input.comment });
  if (!outcome) throw apiError(404, 'not_found', `No active alert ${input.alert_id} on sensor ${input.equipment_id}.`);
  return json({
    alert_history_id: outcome.alertHistoryId,
    store_id: outcome.storeId,
    equipment_id: outcome.equipmentId,
    alert_id: outcome.alertId,
    stopped_date: toCompactDateTimeMs(outcome.stoppedAt),
    stopped_by_name: outcome.stoppedByName,
    stop_comment: outcome.stopComment,
    already_stopped: outcome.alreadyStopped ? 1 : 0,
  });
}
