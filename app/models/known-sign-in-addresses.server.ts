import { createHash } from 'node:crypto';
import type { Db } from '~/db/db.server';

// The addresses each account signed in from (hashed: the table is not a log of where people
// are). Failures counted against an account do not block it from these (app/services/sign-in.server.ts).

const KEEP_DAYS = 90;

const hashOf = (address: string) => createHash('sha256').update(address).digest('hex');

export async function isKnownSignInAddress(db: Db, userId: number, address: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('known_sign_in_addresses')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('address_hash', '=', hashOf(address))
    .where('last_signed_in_at', '>', new Date(now.getTime() - KEEP_DAYS * 86400_000))
    .executeTakeFirst();
  return row !== undefined;
}

export async function rememberSignInAddress(db: Db, userId: number, address: string, now: Date): Promise<void> {
  await db
    .insertInto('known_sign_in_addresses')
    .values({ user_id: userId, address_hash: hashOf(address), last_signed_in_at: now })
    .onConflict((conflict) => conflict.columns(['user_id', 'address_hash']).doUpdateSet({ last_signed_in_at: now }))
    .execute();
}
