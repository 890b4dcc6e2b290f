import type { Db } from '~/db/db.server';
import { isKnownSignInAddress, rememberSignInAddress } from '~/models/known-sign-in-addresses.server';
import { type ClientOrigin, clearLimit, countAgainst, type LimitPolicy, limitState } from '~/models/request-limits.server';

// Sign-in throttling (OWASP ASVS 5, level 2; docs/decisions/090-sign-in-limits.md). Failures are
// counted three ways, in PostgreSQL so that every web process sees them:
// - per account and address: 10 in 15 minutes, then that pair waits;
// - per address: 50 in 15 minutes, whatever the accounts (one client spraying ids);
// - per account: 10 in 15 minutes, which blocks only addresses the account never signed in from.
// An attacker who knows a login id can so exhaust the account's count, but its owner still signs
// in from their store or office, and nobody's own pair is touched by another address's failures.

export class SignInThrottled extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed sign-ins. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`);
  }
}

const WINDOW = 15 * 60;
export const SIGN_IN_POLICIES = {
  pair: { name: 'sign-in:pair', points: 10, windowSeconds: WINDOW },
  address: { name: 'sign-in:address', points: 50, windowSeconds: WINDOW },
  account: { name: 'sign-in:account', points: 10, windowSeconds: WINDOW },
} satisfies Record<string, LimitPolicy>;

const accountKey = (loginId: string) => loginId.trim().toLowerCase();
const pairKey = (loginId: string, origin: ClientOrigin) => `${accountKey(loginId)}|${origin.address}`;

/** Throws SignInThrottled when this sign-in may not even be tried now. */
export async function checkSignInAllowed(db: Db, loginId: string, userId: number | null, origin: ClientOrigin, now: Date): Promise<void> {
  const [pair, address, account] = await Promise.all([
    limitState(db, SIGN_IN_POLICIES.pair, pairKey(loginId, origin)),
    limitState(db, SIGN_IN_POLICIES.address, origin.address),
    limitState(db, SIGN_IN_POLICIES.account, accountKey(loginId)),
  ]);
  const blocked = [pair, address];
  if (account.blocked && !(userId !== null && (await isKnownSignInAddress(db, userId, origin.address, now)))) blocked.push(account);
  const waits = blocked.flatMap((state) => (state.blocked ? [state.retryAfterSeconds] : []));
  if (waits.length > 0) throw new SignInThrottled(Math.max(...waits));
}

export async function recordSignInFailure(db: Db, loginId: string, origin: ClientOrigin): Promise<void> {
  await Promise.all([
    countAgainst(db, SIGN_IN_POLICIES.pair, pairKey(loginId, origin)),
    countAgainst(db, SIGN_IN_POLICIES.address, origin.address),
    countAgainst(db, SIGN_IN_POLICIES.account, accountKey(loginId)),
  ]);
}

export async function recordSignInSuccess(db: Db, loginId: string, userId: number, origin: ClientOrigin, now: Date): Promise<void> {
  await Promise.all([clearLimit(db, SIGN_IN_POLICIES.pair, pairKey(loginId, origin)), rememberSignInAddress(db, userId, origin.address, now)]);
}
