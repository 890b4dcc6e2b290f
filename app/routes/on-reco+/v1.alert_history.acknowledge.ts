import { acknowledgeAlert as acknowledgeCall } from '~/domain/api/escalation';
import { toCompactDateTimeMs } from '~/domain/japan-time';
import { apiError } from '~/http/access.server';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { acknowledgeAlert } from '~/services/alert-acknowledge.server';

// POST /v1/alert_history/acknowledge {store_id, alert_history_id, corrective_action | corrective_action_text, note?}
export const action = apiAction(acknowledgeCall, async ({ viewer, input, db, now }) => {
  const outcome = await acknowledgeAlert(db, viewer, input, now);
  if (!outcome) throw apiError(404, 'not_found', `No alert ${input.alert_history_id} in store ${input.store_id}.`);
  return {
    alert_history_id: outcome.alertHistoryId,
    store_id: outcome.storeId,
    acknowledged_date: toCompactDateTimeMs(outcome.acknowledgedAt),
    acknowledged_by_name: outcome.acknowledgedByName,
    corrective_action: outcome.correctiveAction,
    note: outcome.note,
    already_acknowledged: outcome.alreadyAcknowledged ? (1 as const) : (0 as const),
  };
});

export const loader = apiNotAllowed(acknowledgeCall.path);
