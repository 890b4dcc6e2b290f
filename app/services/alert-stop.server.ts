import type { Db } from '~/db/db.server';
import type { AlertCode } from '~/domain/alert-codes';
import { stopAlert } from '~/domain/alert-engine';
import { findVisibleSensors, lockOpenAlert, markAlertStopped, userName } from '~/models/alert-history.server';
import { audit } from '~/models/audit.server';
import { lockSensorState } from '~/models/sensor-states.server';
import { lockStore } from '~/models/stores.server';
import type { Viewer } from '~/models/users.server';
import { persistDecision } from './alert-persister.server';

// Stopping an alert (POST /v1/alert_history and the stop dialog): the alert stays active in the
// history but is never re-notified. In one transaction, under the same store lock as the alert
// engine's evaluation: the history row gets who stopped it, when and why; an audit row is
// written; the engine's state gets the stopped flag (so snooze re-notifications end), written by
// the alert persister like every other engine decision.

export interface StopRequest {
  equipmentId: number;
  alertId: AlertCode;
  comment: string | null;
  /** The console's store page: the sensor must belong to it. */
  storeId?: string;
}

export interface StopOutcome {
  /** true when the alert had already been stopped: nothing changed (the first stop is kept). */
  alreadyStopped: boolean;
  alertHistoryId: number;
  storeId: string;
  equipmentId: number;
  alertId: AlertCode;
  stoppedAt: Date;
  stoppedByName: string | null;
  stopComment: string | null;
}

export const STOP_AUDIT_ACTION = 'alert_history.stop';

/**
 * Stops the active alert of the sensor and code. Returns null when the viewer may not see the
 * sensor (or it does not exist) or the pair has no active alert: the caller answers 404.
 */
export async function stopActiveAlert(db: Db, viewer: Viewer, request: StopRequest, now = new Date()): Promise<StopOutcome | null> {
  return db.transaction().execute(async (trx) => {
    const [sensor] = await findVisibleSensors(trx, viewer, [request.equipmentId], request.storeId ?? null);
    if (!sensor) return null;
    const { storeId, equipmentId } = sensor;
    const store = await lockStore(trx, storeId);
    if (!store) return null;
    const state = await lockSensorState(trx, storeId, equipmentId);
    const open = await lockOpenAlert(trx, storeId, equipmentId, request.alertId);
    if (!open) return null;
    const base = { alertHistoryId: open.alertHistoryId, storeId, equipmentId, alertId: request.alertId };
    if (open.stoppedAt !== null) {
      return { ...base, alreadyStopped: true, stoppedAt: open.stoppedAt, stoppedByName: await userName(trx, open.stoppedBy), stopComment: open.stopComment };
    }
    await markAlertStopped(trx, storeId, open.alertHistoryId, { at: now, by: viewer.userId, comment: request.comment });
    await audit(trx, {
      at: now,
      userId: viewer.userId,
      action: STOP_AUDIT_ACTION,
      targetType: 'alert_history',
      targetId: open.alertHistoryId,
      storeId,
      details: { equipment_id: equipmentId, alert_id: request.alertId, comment: request.comment, before: { stopped_at: null, stopped_by: null }, after: { stopped_at: now.toISOString(), stopped_by: viewer.userId } },
    });
    // The engine's side of a stop: the alert stays open, never re-notified; no transition. A sensor never evaluated has no state to keep.
    const sensors = state ? [{ equipmentId, evaluation: { state: stopAlert(state, request.alertId), transitions: [] }, latest: null }] : [];
    await persistDecision(trx, { store, sensors }, now);
    return { ...base, alreadyStopped: false, stoppedAt: now, stoppedByName: viewer.userName, stopComment: request.comment };
  });
}
