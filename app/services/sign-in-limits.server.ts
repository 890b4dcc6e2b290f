import type { Db } from '~/db/db.server';
import { isKnownSignInAddress, rememberSignInAddress } from '~/models/known-sign-in-addresses.server';
import { type ClientOrigin, clearLimit, countAgainstEach, type LimitKey, type LimitPolicy, longestWait } from '~/models/request-limits.server';

// Sign-in throttling (OWASP ASVS 5, level 2; docs/decisions/090-sign-in-limits.md). Failures are
// counted three ways, in PostgreSQL so that every web process sees them:
// - per account and address: 10 in 15 minutes, then that pair waits;
// - per address: 50 in 15 minutes, whatever the accounts (one client spraying ids);
// - per account: 10 in 15 minutes;
// the per-address and per-account counts block only addresses the account never signed in from.
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

/** The counters of a sign-in: the account and address pair, the address, the account. */
function signInKeys(loginId: string, origin: ClientOrigin): { pair: LimitKey; address: LimitKey; account: LimitKey } {
  return {
    pair: [SIGN_IN_POLICIES.pair, pairKey(loginId, origin)],
    address: [SIGN_IN_POLICIES.address, origin.address],
    account: [SIGN_IN_POLICIES.account, accountKey(loginId)],
  };
}

/**
 * What a sign-in may do now: throws SignInThrottled when it may not even be tried; otherwise the
 * wait to answer if its password is wrong (`onlyIfCorrect`), or null when it is an ordinary try.
 * The address's and the account's counts do not refuse an account from an address it signed in
 * from before (its known device, 90 days): a shared office address full of other people's
 * failures, or an attacker exhausting the account elsewhere, does not lock its owner out (ASVS
 * 4.0.3 V2.2.1, decision 242). While the address is limited such a try must have the right
 * password: a wrong one counts against the pair and gets the same 429 as any refused try.
 */
export async function checkSignInAllowed(db: Db, loginId: string, userId: number | null, origin: ClientOrigin, now: Date): Promise<{ onlyIfCorrect: number | null }> {
  const { pair, address, account } = signInKeys(loginId, origin);
  const [pairWait, addressWait, accountWait] = await Promise.all([longestWait(db, [pair]), longestWait(db, [address]), longestWait(db, [account])]);
  if (pairWait !== null) throw new SignInThrottled(Math.max(pairWait, addressWait ?? 0, accountWait ?? 0));
  if (addressWait === null && accountWait === null) return { onlyIfCorrect: null };
  // Asked only when a shared count is used up, which an ordinary sign-in never meets.
  if (userId !== null && (await isKnownSignInAddress(db, userId, origin.address, now))) return { onlyIfCorrect: addressWait };
  throw new SignInThrottled(Math.max(addressWait ?? 0, accountWait ?? 0));
}

export async function recordSignInFailure(db: Db, loginId: string, origin: ClientOrigin): Promise<void> {
  await countAgainstEach(db, Object.values(signInKeys(loginId, origin)));
}

export async function recordSignInSuccess(db: Db, loginId: string, userId: number, origin: ClientOrigin, now: Date): Promise<void> {
  await Promise.all([clearLimit(db, SIGN_IN_POLICIES.pair, pairKey(loginId, origin)), rememberSignInAddress(db, userId, origin.address, now)]);
}
