import type { Db } from '~/db/db.server';
import { LOGIN_ERROR } from '~/domain/auth-schemas';
import { getEnv } from '~/env.server';
import { issueAccessToken } from '~/models/access-tokens.server';
import { getUserCredentials } from '~/models/users.server';
import { passwordMatches, verifyPassword } from './password.server';
import type { ClientOrigin } from '~/models/request-limits.server';
import { checkSignInAllowed, recordSignInFailure, recordSignInSuccess, SignInThrottled } from './sign-in-limits.server';

/** The auth info of the specification: what POST /on-reco/token answers and the session keeps. */
export interface AuthInfo {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  '.issued': string;
  '.expires': string;
  user_id: number;
  authority: number;
}

export class LoginError extends Error {}

/**
 * Checks a login id and password and issues a bearer token; throws LoginError with the text users
 * see, or SignInThrottled. Unknown, disabled and known ids cost the same one hash and get the
 * same answer, so neither the answer nor its timing tells which ids exist.
 */
export async function logIn(db: Db, loginId: string, password: string, origin: ClientOrigin, now = new Date()): Promise<AuthInfo> {
  const user = await getUserCredentials(db, loginId);
  const { onlyIfCorrect } = await checkSignInAllowed(db, loginId, user?.userId ?? null, origin, now);
  const matches = user ? await passwordMatches(user, password, now) : await verifyPassword(null, password);
  if (!user || user.validFlg !== 1 || !matches) {
    await recordSignInFailure(db, loginId, origin);
    if (onlyIfCorrect !== null) throw new SignInThrottled(onlyIfCorrect);
    throw new LoginError(LOGIN_ERROR);
  }
  await recordSignInSuccess(db, loginId, user.userId, origin, now);
  const lifetimeMs = getEnv().ONRECO_TOKEN_HOURS * 3600 * 1000;
  const { token, issuedAt, expiresAt } = await issueAccessToken(db, user.userId, now, lifetimeMs);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: Math.round(lifetimeMs / 1000),
    '.issued': issuedAt.toUTCString(),
    '.expires': expiresAt.toUTCString(),
    user_id: user.userId,
    authority: user.authority,
  };
}
