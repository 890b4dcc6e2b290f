import { toApiItem } from '~/domain/alert-history';
import { listAlertHistory as listCall, stopAlert } from '~/domain/api/alerts';
import { toCompactDateTimeMs } from '~/domain/japan-time';
import { apiError } from '~/http/access.server';
import { requireAlertHistoryFilter } from '~/http/alert-history-query.server';
import { apiAction, apiLoader } from '~/http/api-route.server';
import { listAlertHistory } from '~/models/alert-history.server';
import { stopActiveAlert } from '~/services/alert-stop.server';

// GET /v1/alert_history?equipment_id=1,2|store_id=X&start_date=YYYYMMDD&end_date=YYYYMMDD&page_count=10&page_no=1
//   → {all_count, alerts}, newest first (docs/decisions/040-alert-history.md).
export const loader = apiLoader(listCall, async ({ viewer, input, db }) => {
  const filter = await requireAlertHistoryFilter(db, viewer, input);
  const page = await listAlertHistory(db, viewer, filter, input);
  return { all_count: page.allCount, alerts: page.records.map(toApiItem) };
});

// POST /v1/alert_history {equipment_id, alert_id, comment?}: stops the pair's active alert.
// Any user who can see the store may stop; stopping a stopped alert changes nothing (200).
export const action = apiAction(stopAlert, async ({ viewer, input, db }) => {
  const outcome = await stopActiveAlert(db, viewer, { equipmentId: input.equipment_id, alertId: input.alert_id, comment: input.comment });
  if (!outcome) throw apiError(404, 'not_found', `No active alert ${input.alert_id} on sensor ${input.equipment_id}.`);
  return {
    alert_history_id: outcome.alertHistoryId,
    store_id: outcome.storeId,
    equipment_id: outcome.equipmentId,
    alert_id: outcome.alertId,
    stopped_date: toCompactDateTimeMs(outcome.stoppedAt),
    stopped_by_name: outcome.stoppedByName,
    stop_comment: outcome.stopComment,
    already_stopped: outcome.alreadyStopped ? (1 as const) : (0 as const),
  };
});
