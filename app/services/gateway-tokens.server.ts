import type { Db } from '~/db/db.server';
import { hashToken } from '~/models/access-tokens.server';
import { storeOfGatewayToken } from '~/models/gateways.server';
import { logger } from './logger.server';
import { subscribeGatewayChanges } from './live-updates.server';

// Gateway token → store, kept per web process for the readings call (a post a minute from every
// store: the lookup was a statement per post). An entry is dropped when its store's tokens are
// revoked: at once in the process that revoked them (forgetGatewayStore, after its commit) and
// by the onreco_gateway notification in every other one. Entries are kept only while that
// notification's connection is up; when it drops, everything is forgotten.

const MAX_ENTRIES = 100_000;
const stores = new Map<string, string>(); // token hash → store id
let listening: 'no' | 'starting' | 'yes' = 'no';
/** Counts forgets: a lookup that overlapped one is not kept (it may have read the token before its revocation committed). */
let forgets = 0;
const log = logger.child({ module: 'gateway-tokens' });

function forgetAll() {
  forgets += 1;
  stores.clear();
  listening = 'no';
}

/** Drops the store's cached tokens (call after the transaction that revoked them committed). */
export function forgetGatewayStore(storeId: string): void {
  forgets += 1;
  for (const [hash, cached] of stores) if (cached === storeId) stores.delete(hash);
}

function listen() {
  if (listening !== 'no') return;
  listening = 'starting';
  subscribeGatewayChanges(forgetGatewayStore, forgetAll).then(
    () => {
      if (listening === 'starting') listening = 'yes';
    },
    (error: unknown) => {
      log.warn({ err: error }, 'no notification connection: gateway tokens are not cached');
      listening = 'no';
    },
  );
}

/** The store of a live gateway token, or null; from the process's cache when it may be trusted. */
export async function storeOfGatewayTokenCached(db: Db, token: string): Promise<string | null> {
  listen();
  const hash = hashToken(token).toString('base64');
  const cached = stores.get(hash);
  if (cached !== undefined) return cached;
  const trusted = listening === 'yes';
  const before = forgets;
  const storeId = await storeOfGatewayToken(db, token);
  // Only a lookup begun while listening is kept: a revocation before it was heard would be missed.
  if (storeId !== null && trusted && listening === 'yes' && forgets === before) {
    if (stores.size >= MAX_ENTRIES) stores.clear();
    stores.set(hash, storeId);
  }
  return storeId;
}
