import { hash, verify } from '@node-rs/argon2';
import type { UserCredentials } from '~/models/users.server';

// argon2id at OWASP's minimum (19 MiB, t=2, p=1): about what one login may cost on our
// 2-core machines without letting a burst of logins starve the ingest path.
const ARGON2_OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  // Still spend the hashing time when the user has no password, so timing does not tell.
  if (!passwordHash) {
    await hash(password, ARGON2_OPTIONS);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** The user's own password, or a temporary one from the forgotten-password form until it expires. */
export async function passwordMatches(user: UserCredentials, password: string, now: Date): Promise<boolean> {
  if (await verifyPassword(user.passwordHash, password)) return true;
  const temporaryValid = user.temporaryPasswordHash && user.temporaryPasswordExpiresAt && user.temporaryPasswordExpiresAt > now;
  return temporaryValid ? verifyPassword(user.temporaryPasswordHash, password) : false;
}
