import type { Db } from '~/db/db.server';
import { LOGIN_ERROR } from '~/domain/auth-schemas';
import { getEnv } from '~/env.server';
import { issueAccessToken } from '~/models/access-tokens.server';
import { getUserCredentials } from '~/models/users.server';
import { passwordMatches, verifyPassword } from './password.server';

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

/** Checks a login id and password and issues a bearer token; throws LoginError with the text users see. */
export async function logIn(db: Db, loginId: string, password: string, now = new Date()): Promise<AuthInfo> {
  // An unknown login still spends one hash, so response time does not reveal which ids exist.
  const user = await getUserCredentials(db, loginId);
  if (!user) await verifyPassword(null, password);
  if (!user || user.validFlg !== 1 || !(await passwordMatches(user, password, now))) throw new LoginError(LOGIN_ERROR);
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
