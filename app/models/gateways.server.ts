import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { DEFAULT_SAMPLING_INTERVAL_SECONDS } from '~/domain/gateway-schemas';
import { hashToken, newToken } from './access-tokens.server';

/** Failed pairings allowed per gateway in the throttle window before 429. */
export const PAIR_ATTEMPTS_ALLOWED = 5;
export const PAIR_THROTTLE_MINUTES = 15;

export type PairResult = { ok: true; token: string; storeId: string } | { ok: false; reason: 'throttled' | 'invalid' };

/**
 * Pairs a gateway: the PIN must be its store's current one and `gatewayInfo` that store's
 * gateway. A new token replaces (revokes) the store's previous one. Failures are counted, and
 * after PAIR_ATTEMPTS_ALLOWED in PAIR_THROTTLE_MINUTES the gateway is throttled.
 */
export async function pairGateway(db: Db, input: { gatewayInfo: string; pinCode: string; client: string | null }, now: Date): Promise<PairResult> {
  return db.transaction().execute(async (trx) => {
    const since = new Date(now.getTime() - PAIR_THROTTLE_MINUTES * 60_000);
    const { failures } = await trx
      .selectFrom('gateway_pair_attempts')
      .select(sql<number>`count(*)::int`.as('failures'))
      .where('gateway_info', '=', input.gatewayInfo)
      .where('attempted_at', '>', since)
      .executeTakeFirstOrThrow();
    if (failures >= PAIR_ATTEMPTS_ALLOWED) return { ok: false, reason: 'throttled' } as const;
    const store = await trx
      .selectFrom('stores')
      .innerJoin('gateway_pins', 'gateway_pins.store_id', 'stores.store_id')
      .select('stores.store_id')
      .where('stores.gateway_info', '=', input.gatewayInfo)
      .where('gateway_pins.pin_code', '=', input.pinCode)
      .where('gateway_pins.effective_time', '>', now)
      .executeTakeFirst();
    if (!store) {
      await trx.insertInto('gateway_pair_attempts').values({ gateway_info: input.gatewayInfo, attempted_at: now, client: input.client }).execute();
      return { ok: false, reason: 'invalid' } as const;
    }
    await revokeGatewayTokens(trx, store.store_id, now);
    const token = newToken();
    await trx.insertInto('gateway_tokens').values({ store_id: store.store_id, token_hash: hashToken(token), gateway_info: input.gatewayInfo, issued_at: now }).execute();
    await trx.deleteFrom('gateway_pair_attempts').where('gateway_info', '=', input.gatewayInfo).execute();
    return { ok: true, token, storeId: store.store_id } as const;
  });
}

/** Pairing again, gateway exchange and removal end the store's gateway token. */
export async function revokeGatewayTokens(db: Db, storeId: string, now: Date): Promise<void> {
  await db.updateTable('gateway_tokens').set({ revoked_at: now }).where('store_id', '=', storeId).where('revoked_at', 'is', null).execute();
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
