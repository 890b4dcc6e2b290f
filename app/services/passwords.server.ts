import { randomInt } from 'node:crypto';
import type { Db } from '~/db/db.server';
import { FORGOT_PASSWORD_ERROR, PASSWORD_MESSAGES } from '~/domain/auth-schemas';
import { formatDateTime } from '~/domain/japan-time';
import { revokeUserTokens } from '~/models/access-tokens.server';
import { findUserByLoginOrMail, getUserCredentials, setPasswordHash, setTemporaryPasswordHash, type Viewer } from '~/models/users.server';
import { sendMail } from './mail.server';
import { hashPassword, passwordMatches } from './password.server';

const TEMPORARY_PASSWORD_HOURS = 24;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export class PasswordError extends Error {
  constructor(message: string, readonly field: 'login_id' | 'old_pass' | 'new_pass' = 'login_id') {
    super(message);
  }
}

function temporaryPassword(): string {
  return Array.from({ length: 14 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/**
 * POST /v1/user/passcode: mails a temporary password (valid 24 h) to the account's first
 * address. The user's own password keeps working meanwhile. The mail goes out before the
 * transaction commits, so a failed send leaves nothing half done.
 */
export async function issueTemporaryPassword(db: Db, loginIdOrMail: string, now = new Date()): Promise<void> {
  const user = await findUserByLoginOrMail(db, loginIdOrMail);
  if (!user?.mailaddress1) throw new PasswordError(FORGOT_PASSWORD_ERROR);
  const password = temporaryPassword();
  const expiresAt = new Date(now.getTime() + TEMPORARY_PASSWORD_HOURS * 3600_000);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await setTemporaryPasswordHash(trx, user.userId, passwordHash, expiresAt);
    await sendMail({ to: user.mailaddress1!, ...temporaryPasswordMail(user, password, expiresAt) });
  });
}

function temporaryPasswordMail(user: Viewer, password: string, expiresAt: Date) {
  if (user.language === 'US') {
    return {
      subject: '[On-Reco] Temporary password',
      text: `${user.userName},\n\nA temporary password was issued for your On-Reco account (${user.loginId}).\n\n  Temporary password: ${password}\n  Valid until: ${formatDateTime(expiresAt)} (Japan time)\n\nSign in with it and change your password.\nIf you did not ask for it, ignore this mail: your password is unchanged.\n`,
    };
  }
  return {
    subject: '【On-Reco】仮パスワードの発行',
    text: `${user.userName} 様\n\nOn-Reco アカウント（${user.loginId}）の仮パスワードを発行しました。\n\n  仮パスワード: ${password}\n  有効期限: ${formatDateTime(expiresAt)}\n\nこの仮パスワードでログインし、パスワードを変更して下さい。\nお心当たりのない場合はこのメールを破棄して下さい。現在のパスワードは変更されていません。\n`,
  };
}

/** POST /v1/user/pass: the user's own password change; ends every token of theirs (the console signs them in again). */
export async function changePassword(
  db: Db,
  viewer: Viewer,
  input: { login_id: string; old_pass: string; new_pass: string },
  now = new Date(),
): Promise<void> {
  if (input.login_id !== viewer.loginId) throw new PasswordError(PASSWORD_MESSAGES.wrongCurrent, 'old_pass');
  const user = await getUserCredentials(db, viewer.loginId);
  if (!user || !(await passwordMatches(user, input.old_pass, now))) throw new PasswordError(PASSWORD_MESSAGES.wrongCurrent, 'old_pass');
  await db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, user.userId, await hashPassword(input.new_pass), now);
    await revokeUserTokens(trx, user.userId, now);
  });
}
