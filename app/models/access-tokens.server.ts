import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '~/db/db.server';

// Bearer tokens: 256 random bits from the CSPRNG, only their SHA-256 is stored, so a leaked
// table holds no usable token. A fast hash is right here: the token itself has full entropy.

export const hashToken = (token: string) => createHash('sha256').update(token).digest();

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function issueAccessToken(db: Db, userId: number, now: Date, lifetimeMs: number) {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + lifetimeMs);
  await db.insertInto('access_tokens').values({ token_hash: hashToken(token), user_id: userId, issued_at: now, expires_at: expiresAt }).execute();
  return { token, issuedAt: now, expiresAt };
}

export type TokenLookup = { state: 'valid'; userId: number; expiresAt: Date } | { state: 'expired' | 'unknown' };

export async function lookUpAccessToken(db: Db, token: string, now: Date): Promise<TokenLookup> {
  const row = await db
    .selectFrom('access_tokens')
    .select(['user_id', 'expires_at', 'revoked_at'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.revoked_at) return { state: 'unknown' };
  if (row.expires_at.getTime() <= now.getTime()) return { state: 'expired' };
  return { state: 'valid', userId: row.user_id, expiresAt: row.expires_at };
}

export async function revokeAccessToken(db: Db, token: string, now: Date): Promise<void> {
  await db.updateTable('access_tokens').set({ revoked_at: now }).where('token_hash', '=', hashToken(token)).where('revoked_at', 'is', null).execute();
}

/** A password change or reset ends every session of the user. */
export async function revokeUserTokens(db: Db, userId: number, now: Date): Promise<void> {
  await db.updateTable('access_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
