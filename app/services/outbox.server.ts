import type { Db } from '~/db/db.server';
import { claimNextMail, markMailFailed, markMailSent } from '~/models/outbox.server';
import { readReportFile } from '~/models/reports.server';
import { logger } from './logger.server';
import { sendMail } from './mail.server';

/** Mails one run sends at most; the next run (a second later) goes on. */
const MAX_PER_RUN = 1000;
const MAX_BACKOFF_MS = 30 * 60_000;

/** Retry delay after `attempts` failures: 30 s doubling up to 30 minutes. */
export function outboxBackoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 30_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Sends what the outbox holds, one mail per transaction: the row stays locked (FOR UPDATE SKIP
 * LOCKED) while it is sent, so two workers never send it twice, and it is marked sent in the
 * same transaction. A crash between the SMTP server's acceptance and the commit resends that
 * one mail with the same Message-ID (at-least-once); nothing is ever lost.
 */
export async function sendPendingMails(db: Db, now = new Date(), log = logger.child({ module: 'outbox' })): Promise<number> {
  let sent = 0;
  for (;;) {
    const handled = await db.transaction().execute(async (trx) => {
      const mail = await claimNextMail(trx, now);
      if (!mail) return false;
      const attempts = mail.attempts + 1;
      try {
        const file = mail.attachmentStoreId !== null && mail.attachmentHistoryNo !== null ? await readReportFile(trx, mail.attachmentStoreId, mail.attachmentHistoryNo) : null;
        const attachments = file ? [{ filename: file.fileName, content: file.content, contentType: file.contentType }] : undefined;
        await sendMail({ to: mail.toAddress, subject: mail.subject, text: mail.body, messageId: `<outbox-${mail.mailId}@on-reco>`, attachments });
        await markMailSent(trx, mail.mailId, attempts, new Date());
        sent += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.warn({ mailId: mail.mailId, attempts, err: message }, 'mail not sent; will retry');
        await markMailFailed(trx, mail.mailId, attempts, message, outboxBackoffMs(attempts));
      }
      return true;
    });
    if (!handled || sent >= MAX_PER_RUN) return sent;
  }
}
