import { beforeEach, describe, it } from 'vitest';
import { revokeGatewayTokens } from '~/models/gateways.server';
import { action as pairAction } from '~/routes/on-reco+/v1.gateway.pair';
import { loader as configLoader } from '~/routes/on-reco+/v1.gateway.config';
import { createStore, issuePin } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { waitUntil } from '../support/processes';
import { call, get, postJson } from '../support/requests';

// The gateway-token cache of a web process (app/services/gateway-tokens.server.ts, decision 221):
// it serves a token without a lookup, and forgets it when any process revokes the store's tokens.

const db = testDb();
beforeEach(() => resetDb());

const configStatus = async (token: string) => (await call(configLoader, get('/on-reco/v1/gateway/config', token))).status;

describe('the gateway token cache', () => {
  it('serves a known token from memory, and refuses it once another process revokes it', async () => {
    await createStore(db, 'S001');
    const pin = await issuePin(db, 'S001');
    const token = (await (await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: 'GW-S001', pin_code: pin }))).json()).gateway_token as string;
    // The first lookups start the notification connection; one made once it listens is kept.
    await waitUntil(async () => {
      await configStatus(token);
      // A revocation written without its notification: only a cached token still passes.
      await db.transaction().execute((trx) => trx.updateTable('gateway_tokens').set({ revoked_at: new Date() }).where('store_id', '=', 'S001').execute());
      const cached = (await configStatus(token)) === 200;
      if (!cached) await db.updateTable('gateway_tokens').set({ revoked_at: null }).where('store_id', '=', 'S001').execute();
      return cached;
    }, 10_000, 'the token to be cached');
    // Another web process revokes (pairing again, exchange, removal): its notification reaches this one.
    await db.updateTable('gateway_tokens').set({ revoked_at: null }).where('store_id', '=', 'S001').execute();
    await db.transaction().execute((trx) => revokeGatewayTokens(trx, 'S001', new Date()));
    await waitUntil(async () => (await configStatus(token)) === 401, 5_000, 'the revoked token to be refused');
  });
});
