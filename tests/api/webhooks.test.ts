import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toCompactDateTime } from '~/domain/japan-time';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_S } from '~/domain/webhooks';
import { action as policyAction } from '~/routes/on-reco+/v1.escalation_policy';
import { loader as deliveryLoader } from '~/routes/on-reco+/v1.webhook_delivery';
import { action as retryAction } from '~/routes/on-reco+/v1.webhook_delivery.retry';
import { action as endpointAction, loader as endpointLoader } from '~/routes/on-reco+/v1.webhook_endpoint';
import { runEscalations } from '~/services/escalation.server';
import { ingestReadings } from '~/services/ingest.server';
import { deliverPendingWebhooks } from '~/services/webhooks.server';
import { createSensor, createStore, createUser, TEST_PASSWORD } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, postJson, tokenFor } from '../support/requests';

// Webhooks as a channel of escalation steps (decision 285), against a real HTTP receiver on this
// machine: the worker's delivery runs with the clock passed in, so retries are stepped, not waited.

// The receiver is on this machine: the installation's setting lets endpoints reach it (decision 314).
process.env.ONRECO_WEBHOOK_PRIVATE_TARGETS = '1';
process.env.ONRECO_OUTBOX_DIR = mkdtempSync(path.join(tmpdir(), 'onreco-outbox-'));
const db = testDb();
const log = pino({ level: 'silent' });

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiver that answers each request with the next status of `plan` (then 200), and keeps what it got. */
class Receiver {
  server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = this.plan.shift() ?? 200;
      this.received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (status === 200) this.accepted.add(String(request.headers['idempotency-key']));
      response.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : 'no');
    });
  });
  received: Received[] = [];
  /** The idempotency keys this receiver took (a receiver that keeps keys acts on each once). */
  accepted = new Set<string>();
  plan: number[] = [];
  url = (name: string) => `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/${name}`;
  on = (name: string) => this.received.filter((request) => request.path === `/${name}`);
}

const receiver = new Receiver();
beforeAll(() => new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));
beforeEach(async () => {
  await resetDb();
  receiver.received = [];
  receiver.accepted.clear();
  receiver.plan = [];
});

const T = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const at = (minutes: number) => new Date(T.getTime() + minutes * 60_000);
const SERIAL = 'AA:BB:CC:00:00:85';
const reading = (when: Date, temperature: number) => ({ serial_no: SERIAL, measured_at: toCompactDateTime(when), temperature, error: false, battery: 80, receive_sensitivity: -70 });

async function chain() {
  await createStore(db, 'W1', { store_name: '芝公園店' });
  const equipmentId = await createSensor(db, 'W1', SERIAL, { equipment_name: '冷凍ケース1', upper_limit: 10, lower_limit: 0, guard_time: null });
  await createUser(db, 'staff', 101, { storeIds: ['W1'], mail: 'staff@example.com' });
  await createUser(db, 'admin', 1);
  return { equipmentId, admin: await tokenFor('admin', TEST_PASSWORD) };
}

async function register(admin: string, name: string, format = 'json') {
  const response = await call(endpointAction, postJson('/on-reco/v1/webhook_endpoint', { endpoint_name: name, url: receiver.url(name), format }, admin));
  expect(response.status).toBe(201);
  return (await response.json()) as { endpoint_id: number; secret: string };
}

async function policy(admin: string, steps: unknown[]) {
  const saved = await call(policyAction, postJson('/on-reco/v1/escalation_policy', { policy_name: '芝公園 温度', storegroup_id: 'G01', alert_codes: ['OE00000001'], steps }, admin));
  expect(saved.status).toBe(201);
}

const openAlert = async () => {
  await ingestReadings(db, 'W1', [reading(T, 14.2)], T);
  return Number((await db.selectFrom('alert_history').select('alert_history_id').executeTakeFirstOrThrow()).alert_history_id);
};

const sign = (secret: string, timestamp: string, body: string) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

describe('webhook endpoints', () => {
  it('registers an endpoint for administrators only, shows its secret once, and takes https (http only to localhost)', async () => {
    const { admin } = await chain();
    const created = await register(admin, 'hq');
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const list = await (await call(endpointLoader, get('/on-reco/v1/webhook_endpoint', admin))).json();
    expect(list.endpoints).toEqual([expect.objectContaining({ endpoint_id: created.endpoint_id, endpoint_name: 'hq', format: 'json' })]);
    expect(JSON.stringify(list)).not.toContain(created.secret);
    const plain = await call(endpointAction, postJson('/on-reco/v1/webhook_endpoint', { endpoint_name: 'x', url: 'http://hooks.example.com/x', format: 'json' }, admin));
    expect(plain.status).toBe(400);
    expect((await plain.json()).fields).toHaveProperty('url');
    const staff = await tokenFor('staff', TEST_PASSWORD);
    expect((await call(endpointLoader, get('/on-reco/v1/webhook_endpoint', staff))).status).toBe(403);
    const audit = await db.selectFrom('audit_log').select(['action', 'details']).where('action', '=', 'webhook_endpoint.create').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0].details)).not.toContain(created.secret);
  });

  it('refuses a policy step that names an endpoint that does not exist', async () => {
    const { admin } = await chain();
    const saved = await call(policyAction, postJson('/on-reco/v1/escalation_policy', { policy_name: 'x', storegroup_id: 'G01', alert_codes: ['OE00000001'], steps: [{ delay_minutes: 0, channels: ['webhook'], webhook_ids: [999] }] }, admin));
    expect(saved.status).toBe(400);
  });
});

describe('webhook delivery', () => {
  it('posts a signed JSON payload when the step fires: alert, store, sensor, code and label, value, opened at, step, acknowledge link', async () => {
    const { admin, equipmentId } = await chain();
    const { endpoint_id, secret } = await register(admin, 'hq');
    await policy(admin, [{ delay_minutes: 0, store_staff: true, channels: ['mail', 'webhook'], webhook_ids: [endpoint_id] }]);
    const alertId = await openAlert();
    expect(await runEscalations(db, at(0.1), log)).toBe(1);
    expect(await deliverPendingWebhooks(db, at(0.1), log)).toBe(1);
    const [request] = receiver.on('hq');
    const timestamp = String(request.headers['x-onreco-timestamp']);
    expect(request.headers['x-onreco-signature']).toBe(sign(secret, timestamp, request.body));
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
    expect(request.headers['content-type']).toContain('application/json');
    const payload = JSON.parse(request.body);
    expect(request.headers['idempotency-key']).toBe(payload.idempotency_key);
    expect(payload).toMatchObject({
      event: 'alert.opened',
      alert: {
        alert_history_id: alertId,
        code: 'OE00000001',
        label: '温度異常（上限超過）',
        store: { store_id: 'W1', store_name: '芝公園店' },
        sensor: { equipment_id: equipmentId, equipment_name: '冷凍ケース1' },
        value: 14.2,
        opened_at: toCompactDateTime(T),
        recovered_at: null,
      },
      step: 1,
      acknowledge_url: expect.stringContaining(`/stores/W1/warning_histories?alert_history_id=${alertId}`),
    });
    // A tampered body does not verify.
    expect(sign(secret, timestamp, request.body.replace('14.2', '4.2'))).not.toBe(request.headers['x-onreco-signature']);
    expect(await deliverPendingWebhooks(db, at(5), log)).toBe(0);
  });

  it('retries a receiver that fails the first 3 tries with backoff, and delivers on the 4th exactly once by its idempotency key', async () => {
    const { admin } = await chain();
    const { endpoint_id } = await register(admin, 'flaky');
    await policy(admin, [{ delay_minutes: 0, channels: ['webhook'], webhook_ids: [endpoint_id] }]);
    await openAlert();
    await runEscalations(db, at(0), log);
    receiver.plan = [500, 503, 502];
    let clock = at(0);
    expect(await deliverPendingWebhooks(db, clock, log)).toBe(1);
    for (const delay of WEBHOOK_RETRY_DELAYS_S.slice(0, 3)) {
      // Not before its backoff has passed.
      expect(await deliverPendingWebhooks(db, new Date(clock.getTime() + delay * 1000 - 1000), log)).toBe(0);
      clock = new Date(clock.getTime() + delay * 1000);
      expect(await deliverPendingWebhooks(db, clock, log)).toBe(1);
    }
    expect(await deliverPendingWebhooks(db, at(24 * 60), log)).toBe(0);
    const tries = receiver.on('flaky');
    expect(tries).toHaveLength(4);
    expect(new Set(tries.map((request) => request.headers['idempotency-key'])).size).toBe(1);
    expect(new Set(tries.map((request) => request.body)).size).toBe(1);
    expect(receiver.accepted.size).toBe(1);
    const delivery = await db.selectFrom('webhook_deliveries').select(['state', 'attempts', 'last_status']).executeTakeFirstOrThrow();
    expect(delivery).toEqual({ state: 'delivered', attempts: 4, last_status: 200 });
  });

  it('turns a delivery into a dead letter after the last try, shows it to administrators, and retries it now on request', async () => {
    const { admin } = await chain();
    const { endpoint_id } = await register(admin, 'down', 'slack');
    await policy(admin, [{ delay_minutes: 0, channels: ['webhook'], webhook_ids: [endpoint_id] }]);
    await openAlert();
    await runEscalations(db, at(0), log);
    receiver.plan = Array.from({ length: WEBHOOK_MAX_ATTEMPTS }, () => 500);
    let clock = at(0);
    await deliverPendingWebhooks(db, clock, log);
    for (const delay of WEBHOOK_RETRY_DELAYS_S) {
      clock = new Date(clock.getTime() + delay * 1000);
      expect(await deliverPendingWebhooks(db, clock, log)).toBe(1);
    }
    expect(await deliverPendingWebhooks(db, new Date(clock.getTime() + 7 * 86_400_000), log)).toBe(0);
    expect(receiver.on('down')).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    // A Slack endpoint gets Slack's incoming-webhook shape, signed the same way.
    expect(JSON.parse(receiver.on('down')[0].body)).toMatchObject({ text: expect.stringContaining('【警報発生】芝公園店'), blocks: expect.any(Array) });

    const dead = await (await call(deliveryLoader, get('/on-reco/v1/webhook_delivery?state=dead', admin))).json();
    expect(dead.deliveries).toEqual([expect.objectContaining({ endpoint_name: 'down', state: 'dead', attempts: WEBHOOK_MAX_ATTEMPTS, last_status: 500, last_error: 'HTTP 500' })]);
    const staff = await tokenFor('staff', TEST_PASSWORD);
    expect((await call(deliveryLoader, get('/on-reco/v1/webhook_delivery', staff))).status).toBe(403);

    const { delivery_id } = dead.deliveries[0];
    const retried = await call(retryAction, postJson('/on-reco/v1/webhook_delivery/retry', { delivery_id }, admin));
    expect(retried.status).toBe(200);
    const again = await call(retryAction, postJson('/on-reco/v1/webhook_delivery/retry', { delivery_id }, admin));
    expect(again.status).toBe(409);
    expect(await deliverPendingWebhooks(db, new Date(), log)).toBe(1);
    const tries = receiver.on('down');
    expect(tries).toHaveLength(WEBHOOK_MAX_ATTEMPTS + 1);
    expect(tries.at(-1)?.headers['idempotency-key']).toBe(tries[0].headers['idempotency-key']);
    expect(await db.selectFrom('webhook_deliveries').select('state').executeTakeFirstOrThrow()).toEqual({ state: 'delivered' });
    expect(await db.selectFrom('audit_log').select('action').where('action', '=', 'webhook_delivery.retry').execute()).toHaveLength(1);
  });

  it('tells the recovery to the endpoints that were told, and not to a later step\'s that never fired', async () => {
    const { admin } = await chain();
    const first = await register(admin, 'first', 'teams');
    const later = await register(admin, 'later', 'lineworks');
    await policy(admin, [
      { delay_minutes: 0, channels: ['webhook'], webhook_ids: [first.endpoint_id] },
      { delay_minutes: 30, channels: ['webhook'], webhook_ids: [later.endpoint_id] },
    ]);
    await openAlert();
    await runEscalations(db, at(0.1), log);
    await ingestReadings(db, 'W1', [reading(at(12), 4.1)], at(12));
    expect(await runEscalations(db, at(40), log)).toBe(0);
    expect(await deliverPendingWebhooks(db, at(40), log)).toBe(2);
    const [opened, recovered] = receiver.on('first');
    expect(JSON.parse(opened.body)).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }] });
    expect(opened.body).toContain('【警報発生】');
    expect(recovered.body).toContain('【警報復旧】');
    expect(recovered.headers['x-onreco-event']).toBe('alert.recovered');
    expect(recovered.headers['idempotency-key']).not.toBe(opened.headers['idempotency-key']);
    expect(receiver.on('later')).toEqual([]);
  });

  it('never posts twice when two workers run at once', async () => {
    const { admin } = await chain();
    const { endpoint_id } = await register(admin, 'once');
    await policy(admin, [{ delay_minutes: 0, channels: ['webhook'], webhook_ids: [endpoint_id] }]);
    await openAlert();
    await Promise.all([runEscalations(db, at(0.1), log), runEscalations(db, at(0.1), log)]);
    const handled = await Promise.all([deliverPendingWebhooks(db, at(0.2), log), deliverPendingWebhooks(db, at(0.2), log)]);
    expect(handled.reduce((a, b) => a + b)).toBe(1);
    expect(receiver.on('once')).toHaveLength(1);
  });
});
