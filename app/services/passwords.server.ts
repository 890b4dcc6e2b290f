import { randomInt } from 'node:crypto';
import type { Db } from '~/db/db.server';
import { PASSWORD_MESSAGES } from '~/domain/auth-schemas';
import { formatDateTime } from '~/domain/japan-time';
import { textsFor } from '~/domain/texts';
import { revokeUserTokens } from '~/models/access-tokens.server';
import { audit } from '~/models/audit.server';
import { findUserByLoginOrMail, getUserCredentials, setPasswordHash, setTemporaryPasswordHash, type Viewer } from '~/models/users.server';
import { countAgainst, type LimitPolicy } from '~/models/request-limits.server';
import { logger } from './logger.server';
import { sendMail } from './mail.server';
import { hashPassword, passwordMatches } from './password.server';
import type { ClientOrigin } from '~/models/request-limits.server';

const TEMPORARY_PASSWORD_HOURS = 24;
const log = logger.child({ module: 'passwords' });
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export class PasswordError extends Error {
  constructor(message: string, readonly field: 'login_id' | 'old_pass' | 'new_pass' = 'login_id') {
    super(message);
  }
}

function temporaryPassword(): string {
  return Array.from({ length: 14 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

export const PASSCODE_POLICIES = {
  account: { name: 'passcode:account', points: 3, windowSeconds: 3600 },
  address: { name: 'passcode:address', points: 10, windowSeconds: 3600 },
} satisfies Record<string, LimitPolicy>;

export class PasscodeThrottled extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many requests. Try again later.');
  }
}

/**
 * POST /v1/user/passcode: mails a temporary password (valid 24 h) to the account's first
 * address; the user's own password keeps working meanwhile. Known and unknown ids get the same
 * answer after the same work (one lookup, one hash), so neither tells which accounts exist; the
 * mail and the stored hash follow in `delivery`, which the caller does not wait for. A failed send
 * stores nothing. At most 3 mails an hour per account (more are dropped, silently, as for an
 * unknown id) and 10 requests an hour per address (429).
 */
export async function issueTemporaryPassword(db: Db, loginIdOrMail: string, origin: ClientOrigin, now = new Date()): Promise<{ delivery: Promise<boolean> }> {
  const perAddress = await countAgainst(db, PASSCODE_POLICIES.address, origin.address);
  if (perAddress.blocked) throw new PasscodeThrottled(perAddress.retryAfterSeconds);
  const user = await findUserByLoginOrMail(db, loginIdOrMail);
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password);
  if (!user?.mailaddress1) return { delivery: Promise.resolve(false) };
  const perAccount = await countAgainst(db, PASSCODE_POLICIES.account, String(user.userId));
  if (perAccount.blocked) return { delivery: Promise.resolve(false) };
  const expiresAt = new Date(now.getTime() + TEMPORARY_PASSWORD_HOURS * 3600_000);
  const delivery = db
    .transaction()
    .execute(async (trx) => {
      await setTemporaryPasswordHash(trx, user.userId, passwordHash, expiresAt);
      // Who asked is unknown (the call is unauthenticated): the row names the account and the address asked from.
      await audit(trx, { userId: null, action: 'user.temporary_password', targetType: 'user', targetId: user.userId, details: { requested_from: origin.address, valid_until: expiresAt.toISOString() }, at: now });
      await sendMail({ to: user.mailaddress1!, ...temporaryPasswordMail(user, password, expiresAt) });
      return true;
    })
    .catch((error: unknown) => {
      log.warn({ err: error, userId: user.userId }, 'temporary password not mailed; nothing stored');
      return false;
    });
  return { delivery };
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
    await audit(trx, { userId: user.userId, action: 'user.password_change', targetType: 'user', targetId: user.userId, at: now });
  });
}

/** A temporary password for a new user's welcome mail (the same kind the forgotten-password mail sends): the password, its hash and its end. */
export async function newTemporaryPassword(now: Date, validHours = TEMPORARY_PASSWORD_HOURS): Promise<{ password: string; hash: string; expiresAt: Date }> {
  const password = temporaryPassword();
  return { password, hash: await hashPassword(password), expiresAt: new Date(now.getTime() + validHours * 3600_000) };
}
