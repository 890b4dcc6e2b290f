import type { Db } from '~/db/db.server';
import { stopAlert } from '~/domain/alert-engine';
import type { AlertAcknowledgeInput } from '~/domain/escalation';
import { audit } from '~/models/audit.server';
import { lockAlertForAcknowledgement, markAlertAcknowledged } from '~/models/escalation.server';
import { lockSensorState } from '~/models/sensor-states.server';
import { canViewStore, lockStore } from '~/models/stores.server';
import type { Viewer } from '~/models/users.server';
import { persistDecision } from './alert-persister.server';

// Acknowledging an alert with the corrective action taken (docs/decisions/237-acknowledge-and-stop.md).
// Under the store lock, like a stop: the history row gets who, when, the action and the note;
// the escalation job skips acknowledged alerts (it locks the same row before firing a step); the
// engine's state gets the stopped flag, so re-notifications end too; an audit row is written.

export const ACKNOWLEDGE_AUDIT_ACTION = 'alert_history.acknowledge';

export interface AcknowledgeOutcome {
  alertHistoryId: number;
  storeId: string;
  acknowledgedAt: Date;
  acknowledgedByName: string | null;
  correctiveAction: string;
  note: string | null;
  alreadyAcknowledged: boolean;
}

/** Null when the viewer may not see the store or the store has no such alert (the caller answers 404). */
export async function acknowledgeAlert(db: Db, viewer: Viewer, input: AlertAcknowledgeInput, now = new Date()): Promise<AcknowledgeOutcome | null> {
  return db.transaction().execute(async (trx) => {
    if (!(await canViewStore(trx, viewer, input.store_id))) return null;
    const store = await lockStore(trx, input.store_id);
    if (!store) return null;
    const alert = await lockAlertForAcknowledgement(trx, input.store_id, input.alert_history_id);
    if (!alert) return null;
    const base = { alertHistoryId: alert.alertHistoryId, storeId: input.store_id };
    if (alert.acknowledgedAt !== null) {
      // The first acknowledgement stands (HACCP: who acted first is the record).
      return { ...base, alreadyAcknowledged: true, acknowledgedAt: alert.acknowledgedAt, acknowledgedByName: alert.acknowledgedByName, correctiveAction: alert.correctiveAction ?? '', note: alert.acknowledgeNote };
    }
    await markAlertAcknowledged(trx, input.store_id, alert.alertHistoryId, { at: now, by: viewer.userId, action: input.action, note: input.note });
    await audit(trx, {
      at: now,
      userId: viewer.userId,
      action: ACKNOWLEDGE_AUDIT_ACTION,
      targetType: 'alert_history',
      targetId: alert.alertHistoryId,
      storeId: input.store_id,
      details: { equipment_id: alert.equipmentId, alert_id: alert.code, corrective_action: input.action, note: input.note, before: { acknowledged_at: null }, after: { acknowledged_at: now.toISOString(), acknowledged_by: viewer.userId } },
    });
    const state = alert.recoveredAt === null && alert.equipmentId !== null ? await lockSensorState(trx, input.store_id, alert.equipmentId) : undefined;
    const sensors = state && alert.equipmentId !== null ? [{ equipmentId: alert.equipmentId, evaluation: { state: stopAlert(state, alert.code), transitions: [] }, latest: null }] : [];
    await persistDecision(trx, { store, sensors }, now);
    return { ...base, alreadyAcknowledged: false, acknowledgedAt: now, acknowledgedByName: viewer.userName, correctiveAction: input.action, note: input.note };
  });
}
