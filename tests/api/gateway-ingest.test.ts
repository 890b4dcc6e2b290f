import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { toCompactDateTime } from '~/domain/japan-time';
import { action as pairAction } from '~/routes/on-reco+/v1.gateway.pair';
import { loader as configLoader } from '~/routes/on-reco+/v1.gateway.config';
import { action as readingsAction } from '~/routes/on-reco+/v1.gateway.readings';
import { TEST_PASSWORD, countRows, createSensor, createStore, createUser, issuePin } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { BASE, call, get, postJson, tokenFor } from '../support/requests';

const db = testDb();
beforeEach(() => resetDb());

async function pairedStore(storeId = 'S001') {
  await createStore(db, storeId, { working_state: 0 });
  const pin = await issuePin(db, storeId);
  const response = await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: `GW-${storeId}`, pin_code: pin }));
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.store_id).toBe(storeId);
  return body.gateway_token as string;
}

function postReadings(token: string, readings: unknown[], gzip = false) {
  const json = JSON.stringify({ readings });
  return new Request(`${BASE}/on-reco/v1/gateway/readings`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) },
    body: gzip ? gzipSync(json) : json,
  });
}

const minutesAgo = (minutes: number) => toCompactDateTime(new Date(Math.floor(Date.now() / 60_000) * 60_000 - minutes * 60_000));
const reading = (serial_no: string, minutes: number, temperature: number | null, extra: object = {}) => ({
  serial_no, measured_at: minutesAgo(minutes), temperature, error: temperature === null, battery: 80, receive_sensitivity: -70, ...extra,
});

describe('gateway pairing', () => {
  it('pairs with the current PIN, and pairing again revokes the old token', async () => {
    const first = await pairedStore();
    await issuePin(db, 'S001', '654321');
    const again = await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: 'GW-S001', pin_code: '654321' }));
    const second = (await again.json()).gateway_token;
    expect((await call(configLoader, get('/on-reco/v1/gateway/config', first))).status).toBe(401);
    expect((await call(configLoader, get('/on-reco/v1/gateway/config', second))).status).toBe(200);
  });

  it('refuses a wrong PIN, another store\'s gateway and an expired PIN, and throttles guessing', async () => {
    await createStore(db, 'S001');
    await createStore(db, 'S002');
    await issuePin(db, 'S001', '111111');
    await issuePin(db, 'S002', '222222');
    expect((await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: 'GW-S001', pin_code: '222222' }))).status).toBe(400);
    await db.updateTable('gateway_pins').set({ effective_time: new Date(Date.now() - 1000) }).where('store_id', '=', 'S002').execute();
    expect((await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: 'GW-S002', pin_code: '222222' }))).status).toBe(400);
    const bad = await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: 'GW-S001', pin_code: '12ab' }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields).toHaveProperty('pin_code');
  });

  it('throttles PIN guessing per gateway and address, so a guesser cannot lock the installer out', async () => {
    await createStore(db, 'S001');
    await issuePin(db, 'S001', '111111');
    const pair = (pin_code: string, address: string) =>
      pairAction({ request: postJson('/on-reco/v1/gateway/pair', { gateway_info: 'GW-S001', pin_code }), params: {}, context: { clientAddress: address } }) as Promise<Response>;
    for (let i = 0; i < 5; i += 1) expect((await pair('000000', '203.0.113.9')).status).toBe(400);
    const throttled = await pair('111111', '203.0.113.9');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('Retry-After'))).toBeGreaterThan(0);
    // The installer at the store, from another address, pairs with the right PIN.
    expect((await pair('111111', '198.51.100.20')).status).toBe(200);
    // Guessing spread over many addresses reaches the gateway's own count.
    for (let i = 0; i < 100; i += 1) await pair('000000', `192.0.2.${i}`);
    expect((await pair('111111', '198.51.100.21')).status).toBe(429);
  });

  it('serves the store\'s sensors to its gateway only', async () => {
    const token = await pairedStore();
    const equipmentId = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01');
    const config = await (await call(configLoader, get('/on-reco/v1/gateway/config', token))).json();
    expect(config).toEqual({ store_id: 'S001', sampling_interval_seconds: 60, sensors: [{ equipment_id: equipmentId, serial_no: 'AA:BB:CC:DD:EE:01', encryption_key: null }] });
    await createUser(db, 'admin', 1);
    const userToken = await tokenFor('admin', TEST_PASSWORD);
    expect((await call(configLoader, get('/on-reco/v1/gateway/config', userToken))).status).toBe(401);
    expect((await call(readingsAction, postReadings(userToken, []))).status).toBe(401);
  });
});

describe('POST /v1/gateway/readings', () => {
  it('stores valid readings beside rejected ones, counts duplicates, and accepts gzip', async () => {
    const token = await pairedStore();
    await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01');
    const future = toCompactDateTime(new Date(Date.now() + 10 * 60_000));
    const batch = [
      reading('AA:BB:CC:DD:EE:01', 3, 4.2),
      reading('AA:BB:CC:DD:EE:99', 3, 4.2), // unknown sensor
      reading('AA:BB:CC:DD:EE:01', 2, 4.3, { measured_at: future }), // future
      reading('AA:BB:CC:DD:EE:01', 2, 4.4, { measured_at: '20261340120000' }), // malformed
      reading('AA:BB:CC:DD:EE:01', 2, 999), // bad value
      reading('AA:BB:CC:DD:EE:01', 2, 4.44),
      reading('AA:BB:CC:DD:EE:01', 3, 4.2), // repeat within the batch
    ];
    const response = await call(readingsAction, postReadings(token, batch, true));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.accepted).toBe(2);
    expect(body.duplicates).toBe(1);
    expect(body.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3, 4]);
    expect(body.rejected[0].reason).toMatch(/serial_no/);
    expect(body.rejected[1].reason).toMatch(/future/);
    expect(await countRows(db, 'measurements')).toBe(2);
    const again = await (await call(readingsAction, postReadings(token, batch))).json();
    expect(again).toMatchObject({ accepted: 0, duplicates: 3 });
    expect(await countRows(db, 'measurements')).toBe(2);
    const store = await db.selectFrom('stores').select(['working_state', 'last_gateway_contact_at']).executeTakeFirstOrThrow();
    expect(store.working_state).toBe(1);
    expect(store.last_gateway_contact_at).not.toBeNull();
    const state = await db.selectFrom('sensor_states').selectAll().executeTakeFirstOrThrow();
    expect(state.last_temperature).toBeCloseTo(4.4);
  });

  it('refuses more than 5,000 readings with 400', async () => {
    const token = await pairedStore();
    const response = await call(readingsAction, postReadings(token, Array.from({ length: 5001 }, () => ({}))));
    expect(response.status).toBe(400);
    expect(await countRows(db, 'measurements')).toBe(0);
  });
});

describe('alert path: readings → alert → mail outbox → recovery', () => {
  it('opens an upper-limit alert after the guard time, queues one mail per address, and recovers', async () => {
    const token = await pairedStore();
    const equipmentId = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01', { guard_time: 5, upper_limit: 10, lower_limit: 0, time_constant: 1 });
    await createUser(db, 'area', 30, { storeIds: ['S001'], mail: 'area@example.com' });
    await createUser(db, 'stranger', 30, { mail: 'stranger@example.com' });
    // 4 minutes above the limit: pending (warning), no alert yet.
    await call(readingsAction, postReadings(token, [30, 29, 28, 27].map((m) => reading('AA:BB:CC:DD:EE:01', m, 14))));
    let state = await db.selectFrom('sensor_states').selectAll().executeTakeFirstOrThrow();
    expect(state.status).toBe(1);
    expect(await countRows(db, 'alert_history')).toBe(0);
    // Past the guard time: the alert opens, the store turns to warning, the viewer's user gets mail.
    await call(readingsAction, postReadings(token, [26, 25, 24].map((m) => reading('AA:BB:CC:DD:EE:01', m, 14.5))));
    state = await db.selectFrom('sensor_states').selectAll().executeTakeFirstOrThrow();
    expect(state.status).toBe(2);
    expect(state.alert_codes).toEqual(['OE00000001']);
    const [history] = await db.selectFrom('alert_history').selectAll().execute();
    expect(history).toMatchObject({ equipment_id: equipmentId, alert_id: 'OE00000001', recovered_at: null, lower_limit: 0, upper_limit: 10 });
    expect((await db.selectFrom('stores').select('store_status').executeTakeFirstOrThrow()).store_status).toBe(3);
    const mails = await db.selectFrom('mail_outbox').selectAll().execute();
    expect(mails.map((mail) => mail.to_address)).toEqual(['area@example.com']);
    expect(mails[0].subject).toContain('温度異常');
    expect(mails[0].body).toContain('/stores/S001/temp_graphs?equipment_id=');
    // Back inside by more than the 0.5 °C margin: recovered.
    await call(readingsAction, postReadings(token, [reading('AA:BB:CC:DD:EE:01', 20, 5)]));
    const [recovered] = await db.selectFrom('alert_history').selectAll().execute();
    expect(recovered.recovered_at).not.toBeNull();
    expect((await db.selectFrom('stores').select('store_status').executeTakeFirstOrThrow()).store_status).toBe(2);
  });
});

describe('the store row a batch writes (docs/decisions/195-stores-hot-updates.md)', () => {
  it('stays heap-only: no index of stores reads the contact time, and its pages keep room for the new version', async () => {
    const indexes = await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and tablename = 'stores'`.execute(db);
    expect(indexes.rows.length).toBeGreaterThan(0);
    expect(indexes.rows.filter((index) => index.indexdef.includes('last_gateway_contact_at'))).toEqual([]);
    const options = await sql<{ reloptions: string[] | null }>`select reloptions from pg_class where oid = 'stores'::regclass`.execute(db);
    expect(options.rows[0].reloptions).toContain('fillfactor=90');
  });
});
