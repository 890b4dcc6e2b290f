import { sql } from 'kysely';
import type { Db } from '~/db/db.server';

// The mail outbox: alert mails are queued in the transaction that decided them and sent later
// by the worker, one locked row at a time.

export interface QueuedMail {
  toAddress: string;
  subject: string;
  body: string;
  storeId: string | null;
  alertHistoryId: number | null;
  /** A produced report to attach, by reference (read when the mail is sent). */
  attachment?: { storeId: string; historyNo: number } | null;
  /** Not sent before this instant (a recipient's quiet hours, decision 315); unset: at once. */
  sendAfter?: Date | null;
}

/** Queues the mails in one statement, in order (mail_id follows the array). */
export async function enqueueMails(trx: Db, mails: readonly QueuedMail[]): Promise<void> {
  if (mails.length === 0) return;
  await trx
    .insertInto('mail_outbox')
    .values(mails.map((mail) => ({ to_address: mail.toAddress, subject: mail.subject, body: mail.body, store_id: mail.storeId, alert_history_id: mail.alertHistoryId, attachment_store_id: mail.attachment?.storeId ?? null, attachment_history_no: mail.attachment?.historyNo ?? null, ...(mail.sendAfter ? { send_after: mail.sendAfter } : {}) })))
    .execute();
}

export interface OutboxMail {
  mailId: number;
  toAddress: string;
  subject: string;
  body: string;
  attempts: number;
  attachmentStoreId: string | null;
  attachmentHistoryNo: number | null;
}

/**
 * The oldest mail due at `now`, locked for the transaction (FOR UPDATE SKIP LOCKED: another
 * worker takes the next one instead of waiting). Null when none is due.
 */
export async function claimNextMail(trx: Db, now: Date): Promise<OutboxMail | null> {
  const row = await trx
    .selectFrom('mail_outbox')
    .select(['mail_id as mailId', 'to_address as toAddress', 'subject', 'body', 'attempts', 'attachment_store_id as attachmentStoreId', 'attachment_history_no as attachmentHistoryNo'])
    .where('sent_at', 'is', null)
    .where('send_after', '<=', now)
    .orderBy('mail_id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  return row ?? null;
}

export async function markMailSent(trx: Db, mailId: number, attempts: number, sentAt: Date): Promise<void> {
  await trx.updateTable('mail_outbox').set({ sent_at: sentAt, attempts, last_error: null }).where('mail_id', '=', mailId).execute();
}

/** Records the failure; the mail is due again `retryInMs` after the database's now. */
export async function markMailFailed(trx: Db, mailId: number, attempts: number, error: string, retryInMs: number): Promise<void> {
  await trx
    .updateTable('mail_outbox')
    .set({ attempts, last_error: error.slice(0, 500), send_after: sql<Date>`now() + ${`${retryInMs} milliseconds`}::interval` })
    .where('mail_id', '=', mailId)
    .execute();
}
