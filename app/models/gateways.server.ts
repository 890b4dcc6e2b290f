import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { DEFAULT_SAMPLING_INTERVAL_SECONDS } from '~/domain/gateway-schemas';
import { hashToken, newToken } from './access-tokens.server';

/** The store whose gateway is `gatewayInfo` and whose current PIN is `pinCode`, or null. */
export async function findStoreToPair(db: Db, gatewayInfo: string, pinCode: string, now: Date): Promise<string | null> {
  const store = await db
    .selectFrom('stores')
    .innerJoin('gateway_pins', 'gateway_pins.store_id', 'stores.store_id')
    .select('stores.store_id')
    .where('stores.gateway_info', '=', gatewayInfo)
    .where('gateway_pins.pin_code', '=', pinCode)
    .where('gateway_pins.effective_time', '>', now)
    .executeTakeFirst();
  return store?.store_id ?? null;
}

/** A new gateway token for the store; the previous one ends. Returns the token (only its hash is kept). */
export async function issueGatewayToken(trx: Db, storeId: string, gatewayInfo: string, now: Date): Promise<string> {
  await revokeGatewayTokens(trx, storeId, now);
  const token = newToken();
  await trx.insertInto('gateway_tokens').values({ store_id: storeId, token_hash: hashToken(token), gateway_info: gatewayInfo, issued_at: now }).execute();
  return token;
}

/** Pairing again, gateway exchange and removal end the store's gateway token; every web process forgets it at commit (onreco_gateway). */
export async function revokeGatewayTokens(db: Db, storeId: string, now: Date): Promise<void> {
  await db.updateTable('gateway_tokens').set({ revoked_at: now }).where('store_id', '=', storeId).where('revoked_at', 'is', null).execute();
  await sql`select pg_notify('onreco_gateway', ${storeId})`.execute(db);
}

/** The store of a live gateway token (whose gateway is still the store's gateway), or null. */
export async function storeOfGatewayToken(db: Db, token: string): Promise<string | null> {
  const row = await db
    .selectFrom('gateway_tokens')
    .innerJoin('stores', 'stores.store_id', 'gateway_tokens.store_id')
    .select('gateway_tokens.store_id')
    .where('gateway_tokens.token_hash', '=', hashToken(token))
    .where('gateway_tokens.revoked_at', 'is', null)
    .whereRef('stores.gateway_info', '=', 'gateway_tokens.gateway_info')
    .executeTakeFirst();
  return row?.store_id ?? null;
}

export interface GatewayConfig {
  store_id: string;
  sampling_interval_seconds: number;
  sensors: { equipment_id: number; serial_no: string; encryption_key: string | null }[];
}

/** GET /v1/gateway/config: the store's sensors still installed, and the upload settings. */
export async function getGatewayConfig(db: Db, storeId: string, today: string): Promise<GatewayConfig> {
  const sensors = await db
    .selectFrom('sensors')
    .select(['equipment_id', 'serial_no', 'encryption_key'])
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([eb('removal_datetime', 'is', null), eb('removal_datetime', '>=', today)]))
    .orderBy('equipment_id')
    .execute();
  return { store_id: storeId, sampling_interval_seconds: DEFAULT_SAMPLING_INTERVAL_SECONDS, sensors };
}

/** Removes the PINs whose effective time has passed, so the store management page offers a reissue. Returns how many. */
export async function deleteExpiredPins(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom('gateway_pins').where('effective_time', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
