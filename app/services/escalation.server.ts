import type { Logger } from 'pino';
import type { Db } from '~/db/db.server';
import { alertMail } from '~/domain/alert-mail';
import { isInAlertStop } from '~/domain/alert-stop-schedule';
import { dueSteps, type EscalationPolicy, policyFor } from '~/domain/escalation';
import { toCompactDate } from '~/domain/japan-time';
import { absoluteUrl, sensorGraphUrl } from '~/domain/urls';
import { getEnv } from '~/env.server';
import { loadAlertStopSchedules } from '~/models/alert-schedules.server';
import { type EscalationCandidate, listEscalationCandidates, listStorePolicies, lockUnacknowledgedAlert, recordFiredStep, type StepRecipient, stepRecipients } from '~/models/escalation.server';
import { quietHoursEnd } from '~/domain/quiet-hours';
import { type QueuedMail, enqueueMails } from '~/models/outbox.server';
import { WEBHOOK_EVENTS } from '~/domain/webhooks';
import { queueWebhookDeliveries, type WebhookAlert } from './webhooks.server';

// Fires the escalation steps that are due (docs/decisions/236-escalation.md). Each step of each
// alert is its own transaction: the alert row is locked (an acknowledgement waits or wins), the
// step is recorded under its primary key and its messages are queued in the outbox before the
// commit. A worker killed before the commit leaves nothing, so the next run fires the step; one
// killed after it leaves the record, so no run fires it again.

/** A store-level alert (gateway down) follows the store-wide alert-stop windows only. */
const STORE_LEVEL = -1;

export async function runEscalations(db: Db, now: Date, log: Logger): Promise<number> {
  const candidates = await listEscalationCandidates(db);
  const byStore = new Map<string, EscalationCandidate[]>();
  for (const candidate of candidates) byStore.set(candidate.storeId, [...(byStore.get(candidate.storeId) ?? []), candidate]);
  let fired = 0;
  for (const [storeId, alerts] of byStore) {
    const [policies, schedules] = await Promise.all([listStorePolicies(db, storeId), loadAlertStopSchedules(db, storeId)]);
    for (const alert of alerts) {
      const policy = policyFor(policies, alert.code);
      if (!policy) continue;
      // Inside an alert-stop window nothing is notified; the step fires when the window ends if the alert is still open.
      if (isInAlertStop(schedules, alert.equipmentId ?? STORE_LEVEL, now)) continue;
      for (const stepNo of dueSteps(policy.steps, alert.startedAt, now, new Set(alert.fired))) {
        if (await fireStep(db, policy, alert, stepNo, now)) fired += 1;
      }
    }
  }
  if (fired > 0) log.info({ fired }, 'escalation steps fired');
  return fired;
}

async function fireStep(db: Db, policy: EscalationPolicy, alert: EscalationCandidate, stepNo: number, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockUnacknowledgedAlert(trx, alert.storeId, alert.alertHistoryId))) return false;
    const step = policy.steps[stepNo];
    const recipients = await stepRecipients(trx, alert.storeId, step);
    const recorded = await recordFiredStep(trx, { storeId: alert.storeId, alertHistoryId: alert.alertHistoryId, stepNo, userIds: recipients.map((r) => r.userId), at: now });
    if (!recorded) return false;
    if (step.channels.includes('mail')) await enqueueMails(trx, escalationMails(alert, recipients, step.quiet_hours, now));
    if (step.channels.includes('webhook')) await queueWebhookDeliveries(trx, step.webhook_ids, webhookAlertOf(alert, stepNo), now);
    return true;
  });
}

function webhookAlertOf(alert: EscalationCandidate, stepNo: number): WebhookAlert {
  const { storeId, storeName, alertHistoryId, equipmentId, equipmentName, code } = alert;
  return { event: WEBHOOK_EVENTS.open, storeId, storeName, alertHistoryId, equipmentId, equipmentName, code, value: alert.temperature, simulatedValue: alert.simulatedTemperature, openedAt: alert.startedAt, recoveredAt: null, stepNo };
}

/**
 * The opening mail, to each address of each person the step reaches; with a step that honours quiet
 * hours, a person inside theirs gets it when they end (held in the outbox, not dropped).
 */
function escalationMails(alert: EscalationCandidate, recipients: readonly StepRecipient[], honourQuietHours: boolean, now: Date): QueuedMail[] {
  const graphUrl = alert.equipmentId === null ? null : absoluteUrl(getEnv().ONRECO_PUBLIC_URL, sensorGraphUrl(alert.storeId, alert.equipmentId, toCompactDate(alert.startedAt)));
  const facts = {
    kind: 'open' as const,
    code: alert.code,
    storeName: alert.storeName,
    equipmentName: alert.equipmentName,
    temperature: alert.temperature,
    simulatedTemperature: alert.simulatedTemperature,
    error: alert.code === 'OE00000004',
    lowerLimit: alert.lowerLimit,
    upperLimit: alert.upperLimit,
    at: alert.startedAt,
    graphUrl,
  };
  return recipients.flatMap((recipient) => {
    const mail = alertMail(facts, recipient.language);
    const sendAfter = honourQuietHours ? quietHoursEnd(recipient.quietHours, now) : null;
    return recipient.addresses.map((address) => ({ toAddress: address, subject: mail.subject, body: mail.text, storeId: alert.storeId, alertHistoryId: alert.alertHistoryId, sendAfter }));
  });
}
