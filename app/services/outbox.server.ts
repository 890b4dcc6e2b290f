import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { logger } from './logger.server';
import { sendMail } from './mail.server';

const log = logger.child({ module: 'outbox' });
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
export async function sendPendingMails(db: Db, now = new Date()): Promise<number> {
  let sent = 0;
  for (;;) {
    const handled = await db.transaction().execute(async (trx) => {
      const mail = await trx
        .selectFrom('mail_outbox')
        .select(['mail_id', 'to_address', 'subject', 'body', 'attempts'])
        .where('sent_at', 'is', null)
        .where('send_after', '<=', now)
        .orderBy('mail_id')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!mail) return false;
      try {
        await sendMail({ to: mail.to_address, subject: mail.subject, text: mail.body, messageId: `<outbox-${mail.mail_id}@on-reco>` });
        await trx.updateTable('mail_outbox').set({ sent_at: new Date(), attempts: mail.attempts + 1, last_error: null }).where('mail_id', '=', mail.mail_id).execute();
        sent += 1;
      } catch (error) {
        const attempts = mail.attempts + 1;
        const message = error instanceof Error ? error.message : String(error);
        log.warn({ mailId: mail.mail_id, attempts, err: message }, 'mail not sent; will retry');
        await trx
          .updateTable('mail_outbox')
          .set({ attempts, last_error: message.slice(0, 500), send_after: sql<Date>`now() + ${`${outboxBackoffMs(attempts)} milliseconds`}::interval` })
          .where('mail_id', '=', mail.mail_id)
          .execute();
      }
      return true;
    });
    if (!handled || sent >= MAX_PER_RUN) return sent;
  }
}
