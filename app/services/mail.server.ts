import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { getEnv } from '~/env.server';
import { logger } from './logger.server';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** A stable Message-ID lets a resent mail (after a crash) be recognised as the same message. */
  messageId?: string;
  /** Files sent with the mail (a produced report). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

const log = logger.child({ module: 'mail' });
let transporter: Transporter | undefined;

// With SMTP_URL mails go out through nodemailer; without it (a laptop, the demo) they are
// written as .eml files to the outbox folder and logged, so nothing is silently dropped.
function transport(): Transporter {
  if (!transporter) {
    const { SMTP_URL } = getEnv();
    transporter = SMTP_URL
      ? nodemailer.createTransport(SMTP_URL)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }
  return transporter;
}

/** Sends one mail; throws when the SMTP server refuses it, so callers can retry or roll back. */
export async function sendMail(mail: Mail): Promise<void> {
  const env = getEnv();
  const info = await transport().sendMail({ from: env.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, messageId: mail.messageId, attachments: mail.attachments });
  if (env.SMTP_URL) {
    log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent');
    return;
  }
  const dir = path.resolve(env.ONRECO_OUTBOX_DIR);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
  await writeFile(file, (info as unknown as { message: Buffer }).message);
  log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox folder (no SMTP_URL)');
}
