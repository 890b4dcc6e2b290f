import { randomInt } from 'node:crypto';
import type { Db } from '~/db/db.server';
import { FORGOT_PASSWORD_ERROR, PASSWORD_MESSAGES } from '~/domain/auth-schemas';
import { formatDateTime } from '~/domain/japan-time';
import { textsFor } from '~/domain/texts';
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
  return textsFor(user.language).temporaryPasswordMail({ userName: user.userName, loginId: user.loginId, password, validUntil: formatDateTime(expiresAt) });
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
