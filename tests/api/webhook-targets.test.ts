import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toCompactDateTime } from '~/domain/japan-time';
import { action as endpointAction } from '~/routes/on-reco+/v1.webhook_endpoint';
import { ingestReadings } from '~/services/ingest.server';
import { deliverPendingWebhooks } from '~/services/webhooks.server';
import { createSensor, createStore, createUser, TEST_PASSWORD } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, postJson, tokenFor } from '../support/requests';

// The webhook SSRF guard with the installation's setting off, as in production (decision 314):
// refused on save, naming the field, and refused again at delivery for a URL saved before its name
// pointed inside (a real receiver on 127.0.0.1 proves that nothing reaches it).

process.env.ONRECO_WEBHOOK_PRIVATE_TARGETS = '0';
const db = testDb();
const log = pino({ level: 'silent' });

let hits = 0;
const receiver = createServer((_request, response) => {
  hits += 1;
  response.writeHead(200).end('ok');
});
const port = () => (receiver.address() as AddressInfo).port;
beforeAll(() => new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
beforeEach(async () => {
  await resetDb();
  hits = 0;
});

async function admin() {
  await createUser(db, 'admin', 1);
  return tokenFor('admin', TEST_PASSWORD);
}

const save = async (token: string, url: string) => call(endpointAction, postJson('/on-reco/v1/webhook_endpoint', { endpoint_name: 'x', url, format: 'json' }, token));

describe('webhook targets', () => {
  it('refuses on save a URL on loopback, link-local, a private range or the metadata address, naming url', async () => {
    const token = await admin();
    for (const url of [
      `http://127.0.0.1:${port()}/hook`,
      `http://localhost:${port()}/hook`,
      'http://[::1]/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.1.2.3/hook',
      'https://172.16.0.9/hook',
      'https://192.168.1.10/hook',
      'https://[fe80::1]/hook',
      'https://[fd00:ec2::254]/hook',
      'https://[::ffff:127.0.0.1]/hook',
    ]) {
      const response = await save(token, url);
      expect(response.status, url).toBe(400);
      const body = await response.json();
      expect(body.fields, url).toHaveProperty('url');
      expect(body.fields.url).toContain('内部向けのアドレス');
    }
    expect(await db.selectFrom('webhook_endpoints').select('endpoint_id').execute()).toEqual([]);
    // A public address is taken.
    expect((await save(token, 'https://93.184.215.14/hook')).status).toBe(201);
  });

  it('refuses at delivery an endpoint whose name resolves inside (DNS changed since the save): nothing reaches the receiver, the try fails and is retried', async () => {
    await createStore(db, 'T1');
    await createSensor(db, 'T1', 'AA:BB:CC:00:00:31', { upper_limit: 10, lower_limit: 0, guard_time: null });
    const at = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    await ingestReadings(db, 'T1', [{ serial_no: 'AA:BB:CC:00:00:31', measured_at: toCompactDateTime(at), temperature: 14, error: false, battery: 80, receive_sensitivity: -70 }], at);
    const { alert_history_id } = await db.selectFrom('alert_history').select('alert_history_id').executeTakeFirstOrThrow();
    // Saved while the name was public (the row as the save would have written it), now localhost.
    for (const url of [`http://localhost:${port()}/hook`, `http://127.0.0.1:${port()}/hook`]) {
      const { endpoint_id } = await db.insertInto('webhook_endpoints').values({ endpoint_name: url, url, format: 'json', secret: 'whsec_x' }).returning('endpoint_id').executeTakeFirstOrThrow();
      await db.insertInto('webhook_deliveries').values({ endpoint_id, store_id: 'T1', alert_history_id: Number(alert_history_id), event: 'alert.opened', step_no: 0, idempotency_key: crypto.randomUUID(), body: '{}' }).execute();
    }
    expect(await deliverPendingWebhooks(db, new Date(), log)).toBe(2);
    expect(hits).toBe(0);
    const rows = await db.selectFrom('webhook_deliveries').select(['state', 'attempts', 'last_error']).execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ state: 'pending', attempts: 1 });
      expect(row.last_error).toContain('127.0.0.1');
      expect(row.last_error).toContain('ONRECO_WEBHOOK_PRIVATE_TARGETS');
    }
  });
});
