import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { AlertCode } from '~/domain/alert-codes';
import type { AlertTransition } from '~/domain/alert-engine';
import { alertMail, type MailKind } from '~/domain/alert-mail';
import { formatTemperature } from '~/domain/format';
import { toCompactDate } from '~/domain/japan-time';
import { absoluteUrl, sensorGraphUrl } from '~/domain/urls';
import { getEnv } from '~/env.server';
import { listAlertRecipients } from '~/models/users.server';

// Persists the alert engine's transitions: alert_history rows and outbox mails, in the caller's
// transaction, so an alert and its notifications commit (or vanish) together.

export interface SensorTransition {
  equipmentId: number | null; // null: the store-level gateway alert
  equipmentName: string | null;
  transition: Pick<AlertTransition, 'type' | 'code' | 'at' | 'notify' | 'temperature' | 'lowerLimit' | 'upperLimit'>;
}

export async function recordTransitions(trx: Db, store: { storeId: string; storeName: string }, changes: SensorTransition[]): Promise<void> {
  if (changes.length === 0) return;
  let recipients: Awaited<ReturnType<typeof listAlertRecipients>> | undefined;
  for (const change of changes) {
    const historyId = await writeHistory(trx, store.storeId, change);
    if (!change.transition.notify || historyId === null) continue;
    recipients ??= await listAlertRecipients(trx, store.storeId);
    await queueMails(trx, store, change, historyId, recipients);
  }
}

const equipmentIs = (equipmentId: number | null) => (equipmentId === null ? sql<boolean>`equipment_id is null` : sql<boolean>`equipment_id = ${equipmentId}`);

/** Writes the history of one transition; returns the alert's history row, or null when there is none to speak of. */
async function writeHistory(trx: Db, storeId: string, { equipmentId, transition }: SensorTransition): Promise<number | null> {
  const { type, code, at, temperature } = transition;
  if (type === 'open') {
    const row = await trx
      .insertInto('alert_history')
      .values({
        store_id: storeId,
        equipment_id: equipmentId,
        alert_id: code,
        alert_data1: alertData(code, temperature),
        temperature,
        lower_limit: transition.lowerLimit,
        upper_limit: transition.upperLimit,
        started_at: at,
        last_notified_at: transition.notify ? at : null,
      })
      .returning('alert_history_id')
      .executeTakeFirstOrThrow();
    return row.alert_history_id;
  }
  const set = type === 'recover' ? { recovered_at: at } : { last_notified_at: at };
  const row = await trx
    .updateTable('alert_history')
    .set(set)
    .where('store_id', '=', storeId)
    .where(equipmentIs(equipmentId))
    .where('alert_id', '=', code)
    .where('recovered_at', 'is', null)
    .returning('alert_history_id')
    .executeTakeFirst();
  return row?.alert_history_id ?? null;
}

/** alert_data1: the temperature text, or ERROR for a sensor error (000 §3). */
function alertData(code: AlertCode, temperature: number | null): string | null {
  if (code === 'OE00000004') return 'ERROR';
  return temperature === null ? null : formatTemperature(temperature);
}

async function queueMails(
  trx: Db,
  store: { storeId: string; storeName: string },
  { equipmentId, equipmentName, transition }: SensorTransition,
  historyId: number,
  recipients: Awaited<ReturnType<typeof listAlertRecipients>>,
): Promise<void> {
  const kind: MailKind = transition.type;
  // alert_filter 0: occurrence and recovery; 1: occurrence only (re-notifications are occurrences).
  const wanted = recipients.filter((recipient) => kind !== 'recover' || recipient.alertFilter === 0);
  if (wanted.length === 0) return;
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
    error: transition.code === 'OE00000004',
    lowerLimit: transition.lowerLimit,
    upperLimit: transition.upperLimit,
    at: transition.at,
    graphUrl,
  };
  const rows = wanted.flatMap((recipient) => {
    const mail = alertMail(facts, recipient.language);
    return recipient.addresses.map((address) => ({ to_address: address, subject: mail.subject, body: mail.text, store_id: store.storeId, alert_history_id: historyId }));
  });
  if (rows.length > 0) await trx.insertInto('mail_outbox').values(rows).execute();
}
