import type { Db } from '~/db/db.server';
import { audit } from '~/models/audit.server';
import { findStoreToPair, issueGatewayToken } from '~/models/gateways.server';
import { type ClientOrigin, clearLimit, countAgainstEach, type LimitKey, type LimitPolicy, longestWait } from '~/models/request-limits.server';
import { forgetGatewayStore } from './gateway-tokens.server';

// Pairing a gateway with its store's PIN, with PIN guessing throttled (docs/decisions/090-sign-in-limits.md).
// Wrong PINs are counted per gateway and address (5 in 15 minutes), per address (20) and per
// gateway from all addresses together (100). Whoever knows a gateway_info (store users can read
// it) can so exhaust only their own address's counts: the installer at the store, from another
// address, still pairs with the right PIN. Only a guessing spread over many addresses reaches the
// gateway's count, and then the six-digit PIN's daily odds stay near 1 %.

const WINDOW = 15 * 60;
export const PAIRING_POLICIES = {
  pair: { name: 'pairing:pair', points: 5, windowSeconds: WINDOW },
  address: { name: 'pairing:address', points: 20, windowSeconds: WINDOW },
  gateway: { name: 'pairing:gateway', points: 100, windowSeconds: WINDOW },
} satisfies Record<string, LimitPolicy>;

export type PairResult = { ok: true; token: string; storeId: string } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/** The counters of a pairing: the gateway and address pair, the address, the gateway. */
const pairingKeys = (gatewayInfo: string, origin: ClientOrigin): LimitKey[] => [
  [PAIRING_POLICIES.pair, `${gatewayInfo}|${origin.address}`],
  [PAIRING_POLICIES.address, origin.address],
  [PAIRING_POLICIES.gateway, gatewayInfo],
];

/**
 * Pairs a gateway: the PIN must be its store's current one and `gatewayInfo` that store's
 * gateway. A new token replaces (revokes) the store's previous one.
 */
export async function pairGateway(db: Db, input: { gatewayInfo: string; pinCode: string }, origin: ClientOrigin, now: Date): Promise<PairResult> {
  const keys = pairingKeys(input.gatewayInfo, origin);
  const wait = await longestWait(db, keys);
  if (wait !== null) return { ok: false, reason: 'throttled', retryAfterSeconds: wait };
  const storeId = await findStoreToPair(db, input.gatewayInfo, input.pinCode, now);
  if (!storeId) {
    await countAgainstEach(db, keys);
    return { ok: false, reason: 'invalid' };
  }
  // Audited (issue 30): a pairing hands the store's readings to whoever holds the token, so who
  // paired (the address; no user signs in) stays on record. Never the PIN or the token.
  const token = await db.transaction().execute(async (trx) => {
    const issued = await issueGatewayToken(trx, storeId, input.gatewayInfo, now);
    await audit(trx, { userId: null, action: 'gateway.pair', targetType: 'store', targetId: storeId, storeId, details: { gateway_info: input.gatewayInfo, address: origin.address }, at: now });
    return issued;
  });
  forgetGatewayStore(storeId);
  const [[pairPolicy, pairKey]] = keys;
  await clearLimit(db, pairPolicy, pairKey);
  return { ok: true, token, storeId };
}
