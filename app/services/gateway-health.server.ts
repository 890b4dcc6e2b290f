import type { Db } from '~/db/db.server';
import { alertMail } from '~/domain/alert-mail';
import { mailsRecovery } from '~/domain/alert-filter';
import { type CheckedHealthReport, evaluateHealthAlarms } from '~/domain/gateway-health';
import { type HistoryTransition, writeAlertHistory } from '~/models/alert-history.server';
import { getHealthAlarmState, saveHealthReport } from '~/models/gateway-health.server';
import { type QueuedMail, enqueueMails } from '~/models/outbox.server';
import { lockStore } from '~/models/stores.server';
import { listAlertRecipients } from '~/models/users.server';

// A gateway's health report, in one transaction under the store lock (docs/decisions/160-161):
// decide the two store-level alarms (OE00000006 buffer filling / disk nearly full, OE00000007
// readings lost), write their history rows and mails (the worker sends them), then the report as
// the latest and into the 30-day history. Telemetry from the gateway itself: no audit row (as readings).

export type HealthOutcome = { ok: true; opened: string[]; recovered: string[] } | { ok: false; reason: 'not_found' };

export async function recordGatewayHealth(db: Db, storeId: string, report: CheckedHealthReport, now: Date): Promise<HealthOutcome> {
  return db.transaction().execute(async (trx) => {
    const store = await lockStore(trx, storeId);
    if (!store) return { ok: false, reason: 'not_found' } as const;
    const decision = evaluateHealthAlarms(await getHealthAlarmState(trx, storeId), report);
    const transitions: HistoryTransition[] = decision.transitions.map((t) => ({
      equipmentId: null,
      type: t.type,
      code: t.code,
      at: now,
      notify: true,
      temperature: null,
      simulatedTemperature: null,
      lowerLimit: null,
      upperLimit: null,
      data1: 'lost' in t ? String(t.lost) : null,
    }));
    const ids = await writeAlertHistory(trx, storeId, transitions);
    if (transitions.length > 0) {
      const recipients = await listAlertRecipients(trx, storeId);
      const mails: QueuedMail[] = decision.transitions.flatMap((t, index) => {
        const historyId = ids[index];
        if (historyId === null) return [];
        const wanted = recipients.filter((recipient) => t.type !== 'recover' || mailsRecovery(recipient.alertFilter));
        return wanted.flatMap((recipient) => {
          const mail = alertMail(
            { kind: t.type, code: t.code, storeName: store.storeName, equipmentName: null, temperature: null, error: false, lowerLimit: null, upperLimit: null, at: now, graphUrl: null, lost: 'lost' in t ? t.lost : null },
            recipient.language,
          );
          return recipient.addresses.map((address) => ({ toAddress: address, subject: mail.subject, body: mail.text, storeId, alertHistoryId: historyId }));
        });
      });
      await enqueueMails(trx, mails);
    }
    await saveHealthReport(trx, storeId, report, decision, now);
    return {
      ok: true,
      opened: decision.transitions.filter((t) => t.type === 'open').map((t) => t.code),
      recovered: decision.transitions.filter((t) => t.type === 'recover').map((t) => t.code),
    } as const;
  });
}
