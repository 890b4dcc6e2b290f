import type { Db } from '~/db/db.server';
import type { AlertTransition, Evaluation, GatewayTransition } from '~/domain/alert-engine';
import { isTemperatureAlert } from '~/domain/alert-codes';
import { alertMail } from '~/domain/alert-mail';
import { mailsRecovery } from '~/domain/alert-filter';
import type { AlertStopSchedule } from '~/domain/alert-stop-schedule';
import { toCompactDate } from '~/domain/japan-time';
import { absoluteUrl, sensorGraphUrl } from '~/domain/urls';
import { getEnv } from '~/env.server';
import { type HistoryTransition, alertOpenTimes, writeAlertHistory } from '~/models/alert-history.server';
import { loadAlertStopSchedules } from '~/models/alert-schedules.server';
import { type QueuedMail, enqueueMails } from '~/models/outbox.server';
import { type LatestReading, type SensorUnderEvaluation, loadSensorsForEvaluation, saveSensorStates } from '~/models/sensor-states.server';
import { type StoreConnectionChange, type StoreLock, lockStore, refreshStoreStatus } from '~/models/stores.server';
import { type AlertRecipient, listAlertRecipients } from '~/models/users.server';
import { policyFor } from '~/domain/escalation';
import { listStorePolicies, toldRecipients } from '~/models/escalation.server';
import { WEBHOOK_EVENTS } from '~/domain/webhooks';
import { endpointsToldAbout } from '~/models/webhooks.server';
import { queueWebhookDeliveries } from './webhooks.server';

/** Whoever a step told hears of the recovery too, whatever their own alert filter. */
const toldAboutEverything = (recipient: AlertRecipient): AlertRecipient => ({ ...recipient, alertFilter: 0 });

// The database side of the alert engine, for ingest (new readings), the no-communication check
// and the alert stop: load what the engine needs under the store lock, then write what it
// decided for the store in batched statements, in the caller's transaction, so an alert, its
// history and its mails commit (or vanish) together.

export interface StoreForEvaluation {
  store: StoreLock;
  sensors: SensorUnderEvaluation[];
  schedules: AlertStopSchedule[];
}

/** Locks the store row (one evaluation per store at a time) and loads its sensors and alert-stop schedules. Null for an unknown store. */
export async function loadStoreForEvaluation(trx: Db, storeId: string): Promise<StoreForEvaluation | null> {
  const store = await lockStore(trx, storeId);
  if (!store) return null;
  const [sensors, schedules] = await Promise.all([
    loadSensorsForEvaluation(trx, storeId, getEnv().ONRECO_NO_COMMUNICATION_MINUTES),
    loadAlertStopSchedules(trx, storeId),
  ]);
  return { store, sensors, schedules };
}

export interface EvaluatedSensor {
  equipmentId: number;
  /** For the mails; a decision without transitions (an alert stop) may leave it out. */
  equipmentName?: string;
  evaluation: Evaluation;
  /** The newest reading evaluated, or null (silence, a stop). */
  latest: LatestReading | null;
}

/** What the engine decided for one store. */
export interface StoreDecision {
  store: Pick<StoreLock, 'storeId' | 'storeName'>;
  sensors: readonly EvaluatedSensor[];
  /** The store-level gateway alert opened or recovered. */
  gateway?: GatewayTransition;
  /** The stores row's new connection columns. */
  connection?: StoreConnectionChange;
}

/**
 * Writes a store's decision: one upsert of the sensors' states, the history of every transition
 * (store-level first, then the sensors' in order), one insert of the mails, then the store's
 * connection columns, its status and the live-screen notification.
 */
export async function persistDecision(trx: Db, decision: StoreDecision, now: Date): Promise<void> {
  const { storeId } = decision.store;
  await saveSensorStates(trx, storeId, decision.sensors.map(({ equipmentId, evaluation, latest }) => ({ equipmentId, state: evaluation.state, latest })), now);
  const changes = transitionsOf(decision);
  const historyIds = await writeAlertHistory(trx, storeId, changes.map(({ transition }) => transition));
  const notified = changes.flatMap((change, index) => {
    const historyId = historyIds[index];
    return change.transition.notify && historyId !== null ? [{ ...change, historyId }] : [];
  });
  if (notified.length > 0) {
    const [recipients, openedAt, policies] = await Promise.all([
      listAlertRecipients(trx, storeId),
      alertOpenTimes(trx, storeId, notified.filter((change) => change.transition.type === 'recover').map((change) => change.historyId)),
      listStorePolicies(trx, storeId),
    ]);
    // Under an escalation policy its steps tell people (the escalation job fires them); a
    // re-notification and the recovery go to everyone a step told (decision 236).
    const escalated = notified.filter((change) => policyFor(policies, change.transition.code) !== null);
    const told = await toldRecipients(trx, storeId, escalated.filter((change) => change.transition.type !== 'open').map((change) => change.historyId));
    const recipientsOf = (change: (typeof notified)[number]) => (escalated.includes(change) ? (told.get(change.historyId) ?? []).map(toldAboutEverything) : recipients);
    await enqueueMails(trx, notified.flatMap((change) => mailsOf(decision.store, { ...change, openedAt: openedAt.get(change.historyId) ?? null }, recipientsOf(change))));
    await queueRecoveryWebhooks(trx, decision.store, escalated.filter((change) => change.transition.type === 'recover').map((change) => ({ ...change, openedAt: openedAt.get(change.historyId) ?? null })), now);
  }
  await refreshStoreStatus(trx, storeId, decision.connection);
}

/** A recovery goes to every webhook endpoint a step posted the alert's opening to (decision 285). */
async function queueRecoveryWebhooks(trx: Db, store: StoreDecision['store'], recovered: (Change & { historyId: number; openedAt: Date | null })[], now: Date): Promise<void> {
  if (recovered.length === 0) return;
  const told = await endpointsToldAbout(trx, store.storeId, recovered.map((change) => change.historyId), WEBHOOK_EVENTS.open);
  for (const { equipmentName, transition, historyId, openedAt } of recovered) {
    const endpointIds = told.get(historyId) ?? [];
    if (endpointIds.length === 0) continue;
    await queueWebhookDeliveries(
      trx,
      endpointIds,
      { event: WEBHOOK_EVENTS.recover, storeId: store.storeId, storeName: store.storeName, alertHistoryId: historyId, equipmentId: transition.equipmentId, equipmentName, code: transition.code, value: transition.temperature, simulatedValue: transition.simulatedTemperature, openedAt: openedAt ?? transition.at, recoveredAt: transition.at, stepNo: null },
      now,
    );
  }
}

interface Change {
  equipmentName: string | null; // null: the store-level gateway alert
  transition: HistoryTransition;
}

function transitionsOf(decision: StoreDecision): Change[] {
  const gateway: Change[] = decision.gateway ? [{ equipmentName: null, transition: gatewayHistory(decision.gateway) }] : [];
  const sensors = decision.sensors.flatMap(({ equipmentId, equipmentName, evaluation }) =>
    evaluation.transitions.map((transition) => ({ equipmentName: equipmentName ?? null, transition: sensorHistory(equipmentId, transition) })),
  );
  return [...gateway, ...sensors];
}

function gatewayHistory({ type, code, at }: GatewayTransition): HistoryTransition {
  return { equipmentId: null, type, code, at, notify: true, temperature: null, simulatedTemperature: null, lowerLimit: null, upperLimit: null };
}

function sensorHistory(equipmentId: number, { type, code, at, notify, temperature, dampedTemperature, lowerLimit, upperLimit }: AlertTransition): HistoryTransition {
  // The limits were checked against the damped value: kept beside the reading (decision 278).
  const simulatedTemperature = isTemperatureAlert(code) ? dampedTemperature : null;
  return { equipmentId, type, code, at, notify, temperature, simulatedTemperature, lowerLimit, upperLimit };
}

/** One mail per address of each recipient who wants this kind, in the recipient's language. */
function mailsOf(store: StoreDecision['store'], { equipmentName, transition, historyId, openedAt }: Change & { historyId: number; openedAt: Date | null }, recipients: AlertRecipient[]): QueuedMail[] {
  const kind = transition.type;
  // alert_filter 0: occurrence and recovery; 1: occurrence only (re-notifications are occurrences).
  const wanted = recipients.filter((recipient) => kind !== 'recover' || mailsRecovery(recipient.alertFilter));
  const { equipmentId } = transition;
  const graphUrl =
    equipmentId === null
      ? null
      : absoluteUrl(getEnv().ONRECO_PUBLIC_URL, sensorGraphUrl(store.storeId, equipmentId, toCompactDate(transition.at)));
  const facts = {
    kind,
    code: transition.code,
    storeName: store.storeName,
    equipmentName,
    temperature: transition.temperature,
    simulatedTemperature: transition.simulatedTemperature,
    error: transition.code === 'OE00000004',
    lowerLimit: transition.lowerLimit,
    upperLimit: transition.upperLimit,
    at: transition.at,
    graphUrl,
    openedAt,
  };
  return wanted.flatMap((recipient) => {
    const mail = alertMail(facts, recipient.language);
    return recipient.addresses.map((address) => ({ toAddress: address, subject: mail.subject, body: mail.text, storeId: store.storeId, alertHistoryId: historyId }));
  });
}
