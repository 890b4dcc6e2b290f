import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';
import type { UserCredentials } from '~/models/users.server';

// argon2id at OWASP's minimum (19 MiB, t=2, p=1): about what one login may cost on our
// 2-core machines without letting a burst of logins starve the ingest path.
const ARGON2_OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/**
 * At most two hashes at once per process, and a short queue: a flood of sign-ins waits its turn
 * or is told to come back (HashingBusy → 429), while the API's other calls keep the CPU and
 * libuv's threads they need (a flood once slowed store_list from 15 ms to 2.7 s).
 */
const hashing = pLimit(2);
const MAX_WAITING_HASHES = 16;

export class HashingBusy extends Error {
  constructor() {
    super('too many password checks at once');
  }
}

function gated<T>(work: () => Promise<T>): Promise<T> {
  if (hashing.pendingCount >= MAX_WAITING_HASHES) return Promise.reject(new HashingBusy());
  return hashing(work);
}

export function hashPassword(password: string): Promise<string> {
  return gated(() => hash(password, ARGON2_OPTIONS));
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  // Still spend the hashing time when the user has no password, so timing does not tell.
  if (!passwordHash) {
    await hashPassword(password);
    return false;
  }
  return gated(() => verify(passwordHash, password)).catch((error) => {
    if (error instanceof HashingBusy) throw error;
    return false;
  });
}

/** The user's own password, or a temporary one from the forgotten-password form until it expires. */
export async function passwordMatches(user: UserCredentials, password: string, now: Date): Promise<boolean> {
  if (await verifyPassword(user.passwordHash, password)) return true;
  const temporaryValid = user.temporaryPasswordHash && user.temporaryPasswordExpiresAt && user.temporaryPasswordExpiresAt > now;
  return temporaryValid ? verifyPassword(user.temporaryPasswordHash, password) : false;
}
