import { beforeEach, describe, expect, it } from 'vitest';
import { parseCompact, toCompactDateTime } from '~/domain/japan-time';
import { STORE_MESSAGES } from '~/domain/store-schemas';
import { action as pageAction, loader as pageLoader } from '~/routes/_app+/stores.$storeId+/master_managements';
import { action as loginAction } from '~/routes/_auth+/login';
import { action as removalAction, loader as removalLoader } from '~/routes/on-reco+/v1.equipments.removal';
import { loader as configLoader } from '~/routes/on-reco+/v1.gateway.config';
import { action as pairAction } from '~/routes/on-reco+/v1.gateway.pair';
import { loader as storeUsersLoader } from '~/routes/on-reco+/v1.store_users';
import { action as storesAction, loader as storesLoader } from '~/routes/on-reco+/v1.stores';
import { action as pinAction, loader as pinLoader } from '~/routes/on-reco+/v1.stores.pin';
import { TEST_PASSWORD, countRows, createCompany, createSensor, createStore, createUser, issuePin } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { BASE, call, get, postForm, postJson, tokenFor } from '../support/requests';

const db = testDb();
beforeEach(() => resetDb());

/** S001 (operating, gateway GW-S001) and S002; an administrator, maintenance, and an area manager and store user of S001. */
async function chain() {
  await createStore(db, 'S001', { store_name: '新宿店' });
  await createStore(db, 'S002', { store_name: '渋谷店' });
  await db.updateTable('stores').set({ store_no: '1001', tel_no: '0312345678', closing_date: '2030-03-31' }).where('store_id', '=', 'S001').execute();
  await db.updateTable('stores').set({ store_no: '1002' }).where('store_id', '=', 'S002').execute();
  await createUser(db, 'admin', 1);
  await createUser(db, 'maint', 10);
  await createUser(db, 'area', 30, { storeIds: ['S001'] });
  await createUser(db, 'case', 20, { storeIds: ['S001'] });
  await createUser(db, 'store1', 101, { storeIds: ['S001'] });
  await createUser(db, 'store2', 101, { storeIds: ['S002'] });
  const tokens: Record<string, string> = {};
  for (const login of ['admin', 'maint', 'area', 'case', 'store1', 'store2']) tokens[login] = await tokenFor(login, TEST_PASSWORD);
  return tokens;
}

const groupIdOf = async (loginId: string) =>
  (await db.selectFrom('usergroups').select('usergroup_id').where('usergroup_name', '=', `${loginId} group`).executeTakeFirstOrThrow()).usergroup_id;

/** The whole store entity of S001 as the store edit form (and the exchange) sends it. */
async function storeEntity(storeId: string, overrides: Record<string, unknown> = {}) {
  const store = await (await call(storesLoader, get(`/on-reco/v1/stores?store_id=${storeId}`, await tokenFor('admin', TEST_PASSWORD)))).json();
  return {
    store_id: store.store_id,
    store_no: store.store_no,
    store_name: store.store_name,
    prefecture_id: store.prefecture_id,
    address: store.address,
    tel_no: store.tel_no,
    opening_date: store.opening_date,
    closing_date: store.closing_date,
    storegroup_id: store.storegroup_id,
    usergroup: store.usergroup.map((group: { usergroup_id: number }) => group.usergroup_id),
    gateway_info: store.gateway_info,
    ...overrides,
  };
}

async function pair(storeId: string, gatewayInfo: string) {
  const { pin_code } = await (await call(pinAction, postJson('/on-reco/v1/stores/pin', { store_id: storeId }, await tokenFor('admin', TEST_PASSWORD)))).json();
  const response = await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: gatewayInfo, pin_code }));
  expect(response.status).toBe(200);
  return (await response.json()).gateway_token as string;
}

const gatewayAnswers = async (token: string) => (await call(configLoader, get('/on-reco/v1/gateway/config', token))).status;
const storeRow = (storeId: string) => db.selectFrom('stores').selectAll().where('store_id', '=', storeId).executeTakeFirstOrThrow();
const auditActions = async () => (await db.selectFrom('audit_log').select(['action', 'store_id', 'user_id', 'details']).orderBy('audit_id').execute());

describe('GET /v1/stores', () => {
  it('answers the store info of 000 §3, with the PIN only for administrators and maintenance', async () => {
    const tokens = await chain();
    await issuePin(db, 'S001', '246810');
    const admin = await (await call(storesLoader, get('/on-reco/v1/stores?store_id=S001', tokens.admin))).json();
    expect(admin).toEqual({
      store_id: 'S001',
      store_no: '1001',
      store_name: '新宿店',
      company_id: 'C001',
      company_name: 'テスト商事',
      storegroup_id: 'G01',
      storegroup_name: '東京エリア',
      prefecture_id: 13,
      prefecture_name: '東京都',
      address: '東京都新宿区西新宿1-1-1',
      tel_no: '0312345678',
      opening_date: '20240401',
      closing_date: '20300331',
      usergroup: [
        { usergroup_id: await groupIdOf('area'), usergroup_name: 'area group' },
        { usergroup_id: await groupIdOf('case'), usergroup_name: 'case group' },
        { usergroup_id: await groupIdOf('store1'), usergroup_name: 'store1 group' },
      ],
      gateway_info: 'GW-S001',
      working_state: 1,
      diagram_id: null,
      pin_code: '246810',
      effective_time: expect.stringMatching(/^\d{14}$/),
    });
    const maint = await (await call(storesLoader, get('/on-reco/v1/stores?store_id=S001', tokens.maint))).json();
    expect(maint.pin_code).toBe('246810');
    for (const login of ['area', 'store1']) {
      const body = await (await call(storesLoader, get('/on-reco/v1/stores?store_id=S001', tokens[login]))).json();
      expect(body).toMatchObject({ store_id: 'S001', pin_code: null, effective_time: null });
    }
  });

  it('hides other stores (404), needs a token (401) and a store_id (400)', async () => {
    const tokens = await chain();
    const other = await call(storesLoader, get('/on-reco/v1/stores?store_id=S002', tokens.store1));
    expect(other.status).toBe(404);
    expect(await other.text()).not.toContain('渋谷店');
    expect((await call(storesLoader, get('/on-reco/v1/stores?store_id=NOPE', tokens.admin))).status).toBe(404);
    expect((await call(storesLoader, get('/on-reco/v1/stores?store_id=S001'))).status).toBe(401);
    const bad = await call(storesLoader, get('/on-reco/v1/stores', tokens.admin));
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields).toHaveProperty('store_id');
    expect((await call(storesLoader, get(`/on-reco/v1/stores?store_id=${'x'.repeat(21)}`, tokens.admin))).status).toBe(400);
  });
});

describe('gateway PIN', () => {
  it('answers no PIN until one is issued (a read issues nothing), then a 6-digit PIN for 24 hours', async () => {
    const tokens = await chain();
    expect(await (await call(pinLoader, get('/on-reco/v1/stores/pin?store_id=S001', tokens.maint))).json()).toEqual({ pin_code: null, effective_time: null });
    expect(await countRows(db, 'gateway_pins')).toBe(0);
    const before = Date.now();
    const issued = await (await call(pinAction, postJson('/on-reco/v1/stores/pin', { store_id: 'S001' }, tokens.maint))).json();
    expect(issued.pin_code).toMatch(/^\d{6}$/);
    const until = parseCompact(issued.effective_time)!.getTime();
    expect(until).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 24 * 3_600_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    const again = await (await call(pinLoader, get('/on-reco/v1/stores/pin?store_id=S001', tokens.admin))).json();
    expect(again).toEqual(issued);
    expect((await auditActions()).map((row) => row.action)).toEqual(['gateway_pin.reissue']);
  });

  it('reissues: the new PIN replaces the old one, which no longer pairs', async () => {
    const tokens = await chain();
    await issuePin(db, 'S001', '111111');
    const response = await call(pinAction, postJson('/on-reco/v1/stores/pin', { store_id: 'S001' }, tokens.admin));
    expect(response.status).toBe(200);
    const pin = await response.json();
    expect(pin.pin_code).toMatch(/^\d{6}$/);
    expect(await db.selectFrom('gateway_pins').select('pin_code').where('store_id', '=', 'S001').execute()).toEqual([{ pin_code: pin.pin_code }]);
    if (pin.pin_code !== '111111') {
      expect((await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: 'GW-S001', pin_code: '111111' }))).status).toBe(400);
    }
    expect((await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: 'GW-S001', pin_code: pin.pin_code }))).status).toBe(200);
    const [row] = await auditActions();
    expect(row).toMatchObject({ action: 'gateway_pin.reissue', store_id: 'S001' });
    expect(JSON.stringify(row.details)).not.toContain(pin.pin_code);
  });

  it('is for administrators and maintenance only, and a removed store has none', async () => {
    const tokens = await chain();
    for (const login of ['area', 'case', 'store1']) {
      expect((await call(pinLoader, get('/on-reco/v1/stores/pin?store_id=S001', tokens[login]))).status).toBe(403);
      expect((await call(pinAction, postJson('/on-reco/v1/stores/pin', { store_id: 'S001' }, tokens[login]))).status).toBe(403);
    }
    expect((await call(pinLoader, get('/on-reco/v1/stores/pin?store_id=NOPE', tokens.admin))).status).toBe(404);
    expect((await call(pinAction, postJson('/on-reco/v1/stores/pin', { store_id: 'NOPE' }, tokens.admin))).status).toBe(404);
    expect((await call(pinAction, postJson('/on-reco/v1/stores/pin', {}, tokens.admin))).status).toBe(400);
    await db.updateTable('stores').set({ working_state: 2 }).where('store_id', '=', 'S002').execute();
    expect(await (await call(pinLoader, get('/on-reco/v1/stores/pin?store_id=S002', tokens.admin))).json()).toEqual({ pin_code: null, effective_time: null });
    expect((await call(pinAction, postJson('/on-reco/v1/stores/pin', { store_id: 'S002' }, tokens.admin))).status).toBe(409);
  });
});

describe('gateway exchange (POST /v1/stores with a new gateway_info)', () => {
  it('sets the new gateway, waits for its first communication and revokes the old token', async () => {
    const tokens = await chain();
    const oldToken = await pair('S001', 'GW-S001');
    expect(await gatewayAnswers(oldToken)).toBe(200);
    const response = await call(storesAction, postJson('/on-reco/v1/stores', await storeEntity('S001', { gateway_info: ' GW-NEW-1 ' }), tokens.maint));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ store_id: 'S001', gateway_info: 'GW-NEW-1', working_state: 0 });
    expect(await gatewayAnswers(oldToken)).toBe(401);
    const revoked = await db.selectFrom('gateway_tokens').select('revoked_at').where('store_id', '=', 'S001').execute();
    expect(revoked.every((row) => row.revoked_at !== null)).toBe(true);
    expect(await storeRow('S001')).toMatchObject({ gateway_info: 'GW-NEW-1', working_state: 0, store_status: 0 });
    // The new gateway pairs with the PIN; its first upload makes the store operating again.
    const newToken = await pair('S001', 'GW-NEW-1');
    expect(await gatewayAnswers(newToken)).toBe(200);
    const actions = (await auditActions()).map((row) => row.action);
    expect(actions).toContain('store.update');
    expect(actions).toContain('gateway.exchange');
  });

  it('changes nothing for a blank new gateway (400)', async () => {
    const tokens = await chain();
    const oldToken = await pair('S001', 'GW-S001');
    const response = await call(storesAction, postJson('/on-reco/v1/stores', await storeEntity('S001', { gateway_info: '   ' }), tokens.admin));
    expect(response.status).toBe(400);
    expect((await response.json()).fields.gateway_info).toBe('入力してください');
    expect(await storeRow('S001')).toMatchObject({ gateway_info: 'GW-S001', working_state: 1 });
    expect(await gatewayAnswers(oldToken)).toBe(200);
  });

  it('refuses a gateway, number or name another store holds, with the 001 §8 text', async () => {
    const tokens = await chain();
    for (const [field, value] of [['gateway_info', 'GW-S002'], ['store_no', '1002'], ['store_name', '渋谷店']] as const) {
      const response = await call(storesAction, postJson('/on-reco/v1/stores', await storeEntity('S001', { [field]: value }), tokens.admin));
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.error_description).toBe(`The same value can not be registered: ${field}`);
      expect(Object.keys(body.fields)).toEqual([field]);
    }
    expect(await storeRow('S001')).toMatchObject({ gateway_info: 'GW-S001', store_no: '1001', store_name: '新宿店', working_state: 1 });
  });
});

describe('the store management page', () => {
  async function sessionOf(loginId: string): Promise<string> {
    const login = await call(loginAction, postForm('/login', { username: loginId, password: TEST_PASSWORD }));
    return login.headers.get('Set-Cookie')!.split(';')[0];
  }
  const page = (cookie: string, storeId = 'S001') => call(pageLoader, get(`/stores/${storeId}/master_managements`, undefined, { Cookie: cookie }), { storeId });
  const act = (cookie: string, fields: Record<string, string>, storeId = 'S001') =>
    call(pageAction, postForm(`/stores/${storeId}/master_managements`, fields, { Cookie: cookie }), { storeId });

  it('shows the store without a PIN until the form issues one, and exchanges and removes through the form', async () => {
    await chain();
    const cookie = await sessionOf('admin');
    const loaded = await (await page(cookie)).json();
    expect(loaded).toMatchObject({ store: { store_id: 'S001', working_state: 1 }, canExchange: true, canRemove: true, pin: null });
    expect((await act(cookie, { intent: 'reissue_pin' })).status).toBe(200);
    expect((await (await page(cookie)).json()).pin.pin_code).toMatch(/^\d{6}$/);
    const oldToken = await pair('S001', 'GW-S001');

    const blank = await act(cookie, { intent: 'exchange', gateway_info: '  ' });
    expect(blank.status).toBe(400);
    expect(await storeRow('S001')).toMatchObject({ gateway_info: 'GW-S001', working_state: 1 });

    const taken = await act(cookie, { intent: 'exchange', gateway_info: 'GW-S002' });
    expect(await taken.json()).toMatchObject({ ok: false, message: 'このゲートウェイ情報は既に使用されています' });

    expect(await (await act(cookie, { intent: 'exchange', gateway_info: 'GW-S001-B' })).json()).toMatchObject({ intent: 'exchange', ok: true });
    expect(await gatewayAnswers(oldToken)).toBe(401);
    expect(await storeRow('S001')).toMatchObject({ gateway_info: 'GW-S001-B', working_state: 0 });

    // Waiting for the first communication: neither exchange nor removal.
    expect((await act(cookie, { intent: 'removal', gateway_info: 'GW-S001-B' })).status).toBe(409);
    expect((await act(cookie, { intent: 'exchange', gateway_info: 'GW-S001-C' })).status).toBe(409);
    await db.updateTable('stores').set({ working_state: 1 }).where('store_id', '=', 'S001').execute();
    expect(await (await act(cookie, { intent: 'removal', gateway_info: 'GW-S001-B' })).json()).toMatchObject({ intent: 'removal', ok: true });
    expect(await storeRow('S001')).toMatchObject({ working_state: 2, store_status: 1 });

    const before = (await db.selectFrom('gateway_pins').select('pin_code').execute()).length;
    expect(await (await act(cookie, { intent: 'reissue_pin' }, 'S002')).json()).toMatchObject({ intent: 'reissue_pin', ok: true });
    expect((await db.selectFrom('gateway_pins').select('pin_code').execute()).length).toBe(before + 1);
    expect((await act(cookie, { intent: 'nonsense' })).status).toBe(400);
  });

  it('is 403 for case and area managers and store users, and /not_found for a store out of reach', async () => {
    await chain();
    for (const login of ['area', 'case', 'store1']) {
      const cookie = await sessionOf(login);
      expect((await page(cookie)).status).toBe(403);
      expect((await act(cookie, { intent: 'removal', gateway_info: '' })).status).toBe(403);
    }
    const missing = await page(await sessionOf('admin'), 'NOPE');
    expect(missing.status).toBe(302);
    expect(missing.headers.get('Location')).toBe('/not_found');
    expect((await storeRow('S001')).working_state).toBe(1);
  });
});

describe('POST /v1/equipments/removal', () => {
  it('removes an operating store: state 2, token revoked, PIN gone, open alerts ended, history kept', async () => {
    const tokens = await chain();
    const token = await pair('S001', 'GW-S001');
    const equipmentId = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01');
    await db.insertInto('sensor_states').values({ store_id: 'S001', equipment_id: equipmentId, status: 2, alert_codes: ['OE00000001'], engine_state: JSON.stringify({ openAlerts: { OE00000001: {} }, lastMeasuredAt: null }) }).execute();
    await db.insertInto('alert_history').values({ store_id: 'S001', equipment_id: equipmentId, alert_id: 'OE00000001', started_at: new Date(Date.now() - 3_600_000) }).execute();
    await db.updateTable('stores').set({ store_status: 3 }).where('store_id', '=', 'S001').execute();

    const response = await call(removalAction, postJson('/on-reco/v1/equipments/removal', { store_id: 'S001', gateway_info: '' }, tokens.maint));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ store_id: 'S001', gateway_info: 'GW-S001', working_state: 2 });
    expect(await storeRow('S001')).toMatchObject({ working_state: 2, store_status: 1, gateway_info: 'GW-S001' });
    expect(await gatewayAnswers(token)).toBe(401);
    expect(await db.selectFrom('gateway_pins').selectAll().where('store_id', '=', 'S001').execute()).toEqual([]);
    const history = await db.selectFrom('alert_history').select('recovered_at').where('store_id', '=', 'S001').execute();
    expect(history).toHaveLength(1);
    expect(history[0].recovered_at).not.toBeNull();
    const state = await db.selectFrom('sensor_states').select(['status', 'alert_codes', 'engine_state']).executeTakeFirstOrThrow();
    expect(state).toMatchObject({ status: 0, alert_codes: [] });
    expect(state.engine_state).not.toHaveProperty('openAlerts');
    expect(await db.selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
    const row = (await auditActions()).find((entry) => entry.action === 'store.removal');
    expect(row).toMatchObject({ user_id: expect.any(Number), store_id: 'S001', details: { gateway_info: 'GW-S001', ended_alerts: 1 } });
    // Removed: no second removal; an exchange brings the store back (waiting for first communication).
    expect((await call(removalAction, postJson('/on-reco/v1/equipments/removal', { store_id: 'S001', gateway_info: '' }, tokens.admin))).status).toBe(409);
    const exchange = await call(storesAction, postJson('/on-reco/v1/stores', await storeEntity('S001', { gateway_info: 'GW-S001-R' }), tokens.admin));
    expect(await exchange.json()).toMatchObject({ working_state: 0, gateway_info: 'GW-S001-R' });
  });

  it('only in state 1 with a gateway, and only for the store\'s own gateway', async () => {
    const tokens = await chain();
    for (const state of [null, 0, 2]) {
      await db.updateTable('stores').set({ working_state: state }).where('store_id', '=', 'S002').execute();
      const response = await call(removalAction, postJson('/on-reco/v1/equipments/removal', { store_id: 'S002', gateway_info: 'GW-S002' }, tokens.admin));
      expect(response.status).toBe(409);
      expect((await response.json()).error).toBe('invalid_state');
    }
    await db.updateTable('stores').set({ working_state: 1, gateway_info: null }).where('store_id', '=', 'S002').execute();
    expect((await call(removalAction, postJson('/on-reco/v1/equipments/removal', { store_id: 'S002', gateway_info: '' }, tokens.admin))).status).toBe(409);
    const mismatch = await call(removalAction, postJson('/on-reco/v1/equipments/removal', { store_id: 'S001', gateway_info: 'GW-OTHER' }, tokens.admin));
    expect(mismatch.status).toBe(409);
    expect((await mismatch.json()).error).toBe('conflict');
    expect((await storeRow('S001')).working_state).toBe(1);
  });

  it('refuses other roles (403), unknown stores (404), bad bodies (400) and GET (405)', async () => {
    const tokens = await chain();
    for (const login of ['area', 'case', 'store1']) {
      expect((await call(removalAction, postJson('/on-reco/v1/equipments/removal', { store_id: 'S001', gateway_info: '' }, tokens[login]))).status).toBe(403);
    }
    expect((await call(removalAction, postJson('/on-reco/v1/equipments/removal', { store_id: 'NOPE', gateway_info: '' }, tokens.admin))).status).toBe(404);
    const noStore = await call(removalAction, postJson('/on-reco/v1/equipments/removal', { gateway_info: 'GW-S001' }, tokens.admin));
    expect(noStore.status).toBe(400);
    expect((await noStore.json()).fields).toHaveProperty('store_id');
    expect((await call(removalAction, postJson('/on-reco/v1/equipments/removal', { store_id: 'S001', gateway_info: 5 }, tokens.admin))).status).toBe(400);
    const broken = new Request(`${BASE}/on-reco/v1/equipments/removal`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.admin}` }, body: '{' });
    expect((await call(removalAction, broken)).status).toBe(400);
    expect((await call(removalLoader, get('/on-reco/v1/equipments/removal', tokens.admin))).status).toBe(405);
    expect((await storeRow('S001')).working_state).toBe(1);
  });
});

describe('POST /v1/stores (store save)', () => {
  const newStore = async (overrides: Record<string, unknown> = {}) => ({
    store_id: 'S100',
    store_no: '2100',
    store_name: '池袋店',
    prefecture_id: 13,
    address: '東京都豊島区南池袋1-1-1',
    tel_no: '',
    opening_date: '20261201',
    closing_date: null,
    storegroup_id: 'G01',
    usergroup: [await groupIdOf('area')],
    gateway_info: 'GW-S100',
    ...overrides,
  });

  it('creates a store waiting for its gateway (201), for the master menu roles', async () => {
    const tokens = await chain();
    const response = await call(storesAction, postJson('/on-reco/v1/stores', await newStore(), tokens.area));
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ store_id: 'S100', company_id: 'C001', tel_no: null, opening_date: '20261201', working_state: 0, gateway_info: 'GW-S100', usergroup: [{ usergroup_name: 'area group' }] });
    expect((await auditActions()).map((row) => row.action)).toEqual(['store.create']);
    // Maintenance updates stores but does not create them; store users do neither.
    expect((await call(storesAction, postJson('/on-reco/v1/stores', await newStore({ store_id: 'S101', store_no: '2101', store_name: 'x', gateway_info: 'GW-x' }), tokens.maint))).status).toBe(403);
    expect((await call(storesAction, postJson('/on-reco/v1/stores', await storeEntity('S001', { address: '変更' }), tokens.store1))).status).toBe(403);
  });

  it('refuses an administrator or maintenance group as a store\'s user group (400 usergroup), creating nothing', async () => {
    const tokens = await chain();
    for (const staff of ['admin', 'maint']) {
      const refused = await call(storesAction, postJson('/on-reco/v1/stores', await newStore({ usergroup: [await groupIdOf('area'), await groupIdOf(staff)] }), tokens.admin));
      expect(refused.status, staff).toBe(400);
      expect((await refused.json()).fields).toEqual({ usergroup: 'システム管理者・保守のユーザーグループは店舗に割り当てられません' });
    }
    expect(await db.selectFrom('stores').select('store_id').where('store_id', '=', 'S100').execute()).toEqual([]);
    expect((await call(storesAction, postJson('/on-reco/v1/stores', await newStore({ usergroup: [await groupIdOf('area')] }), tokens.admin))).status).toBe(201);
  });

  it('refuses a user group of another company only (400 usergroup); a group of both, or of none yet, is taken (decision 271)', async () => {
    const tokens = await chain();
    await createCompany(db, 'C002', 'G02');
    await createStore(db, 'S900', { company_id: 'C002', storegroup_id: 'G02' });
    const otherOnly = (await db.insertInto('usergroups').values({ usergroup_name: 'C002 の店舗スタッフ', usergroup_authority: 101 }).returning('usergroup_id').executeTakeFirstOrThrow()).usergroup_id;
    await db.insertInto('store_usergroups').values({ store_id: 'S900', usergroup_id: otherOnly }).execute();
    const refused = await call(storesAction, postJson('/on-reco/v1/stores', await newStore({ usergroup: [await groupIdOf('area'), otherOnly] }), tokens.admin));
    expect(refused.status).toBe(400);
    expect((await refused.json()).fields).toEqual({ usergroup: '選択した会社のユーザーグループではありません' });
    // A member of the other company ties a group that no store uses yet to that company.
    const unused = (await db.insertInto('usergroups').values({ usergroup_name: '準備中', usergroup_authority: 101 }).returning('usergroup_id').executeTakeFirstOrThrow()).usergroup_id;
    const member = await createUser(db, 'c2staff', 101);
    await db.updateTable('users').set({ company_id: 'C002' }).where('user_id', '=', member).execute();
    await db.insertInto('user_usergroups').values({ user_id: member, usergroup_id: unused }).execute();
    expect((await call(storesAction, postJson('/on-reco/v1/stores', await newStore({ usergroup: [await groupIdOf('area'), unused] }), tokens.admin))).status).toBe(400);
    expect(await db.selectFrom('stores').select('store_id').where('store_id', '=', 'S100').execute()).toEqual([]);
    // Linked to stores of both companies, or to none and without members: offered to either.
    await db.insertInto('store_usergroups').values({ store_id: 'S001', usergroup_id: otherOnly }).execute();
    const fresh = (await db.insertInto('usergroups').values({ usergroup_name: '新店舗用', usergroup_authority: 101 }).returning('usergroup_id').executeTakeFirstOrThrow()).usergroup_id;
    expect((await call(storesAction, postJson('/on-reco/v1/stores', await newStore({ usergroup: [await groupIdOf('area'), otherOnly, fresh] }), tokens.admin))).status).toBe(201);
    // A store's own links do not tie its groups to its old company: S900 may move to C001 with its group.
    await db.deleteFrom('store_usergroups').where('store_id', '=', 'S001').where('usergroup_id', '=', otherOnly).execute();
    await db.deleteFrom('store_usergroups').where('store_id', '=', 'S100').where('usergroup_id', '=', otherOnly).execute();
    expect((await call(storesAction, postJson('/on-reco/v1/stores', await storeEntity('S900', { storegroup_id: 'G01' }), tokens.admin))).status).toBe(200);
  });

  it('needs a gateway on create, known references, and a valid entity (400 with the fields)', async () => {
    const tokens = await chain();
    const noGateway = await call(storesAction, postJson('/on-reco/v1/stores', await newStore({ gateway_info: null }), tokens.admin));
    expect(noGateway.status).toBe(400);
    expect((await noGateway.json()).fields).toEqual({ gateway_info: '入力してください' });
    const unknown = await call(storesAction, postJson('/on-reco/v1/stores', await newStore({ storegroup_id: 'ZZ', usergroup: [99999] }), tokens.admin));
    expect(unknown.status).toBe(400);
    expect(Object.keys((await unknown.json()).fields).sort()).toEqual(['storegroup_id', 'usergroup']);
    const bad = await call(storesAction, postJson('/on-reco/v1/stores', { store_id: 'S-1', store_no: 'abc', opening_date: '20261340', usergroup: [] }, tokens.admin));
    expect(bad.status).toBe(400);
    const { fields } = await bad.json();
    expect(fields).toMatchObject({ store_id: '半角英数を入力してください', store_no: '半角数値を入力してください', opening_date: 'フォーマットが違います', usergroup: '選択してください', store_name: '入力してください' });
    const duplicateId = await call(storesAction, postJson('/on-reco/v1/stores', await newStore({ store_id: 'S002' }), tokens.area));
    expect(duplicateId.status).toBe(400);
    expect((await duplicateId.json()).error_description).toBe('The same value can not be registered: store_id');
    expect(await db.selectFrom('stores').select('store_id').orderBy('store_id').execute()).toEqual([{ store_id: 'S001' }, { store_id: 'S002' }]);
  });

  it('updates a visible store, keeps the opening date of an operating store, and clears the gateway with null', async () => {
    const tokens = await chain();
    const updated = await call(storesAction, postJson('/on-reco/v1/stores', await storeEntity('S001', { address: '東京都新宿区西新宿2-2-2' }), tokens.case));
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ address: '東京都新宿区西新宿2-2-2', usergroup: expect.arrayContaining([expect.objectContaining({ usergroup_name: 'case group' })]), working_state: 1 });
    const moved = await call(storesAction, postJson('/on-reco/v1/stores', await storeEntity('S001', { opening_date: '20240501' }), tokens.admin));
    expect(moved.status).toBe(400);
    expect((await moved.json()).fields).toHaveProperty('opening_date');
    const token = await pair('S001', 'GW-S001');
    const cleared = await call(storesAction, postJson('/on-reco/v1/stores', await storeEntity('S001', { gateway_info: null }), tokens.admin));
    expect(await cleared.json()).toMatchObject({ gateway_info: null, working_state: null });
    expect(await gatewayAnswers(token)).toBe(401);
  });

  it('refuses a manager unlinking a group they could not link back: higher, equal, or a store-user group of no other store of theirs (403, Japanese message on usergroup, nothing changed; decision 277)', async () => {
    const tokens = await chain();
    await createUser(db, 'area2', 30, { storeIds: ['S001'] });
    await createUser(db, 'store12', 101, { storeIds: ['S001', 'S002'] });
    const [area, area2, caseGroup, store1, store12] = [await groupIdOf('area'), await groupIdOf('area2'), await groupIdOf('case'), await groupIdOf('store1'), await groupIdOf('store12')];
    const linked = async () => (await db.selectFrom('store_usergroups').select('usergroup_id').where('store_id', '=', 'S001').orderBy('usergroup_id').execute()).map((row) => row.usergroup_id);
    const all = await linked();
    expect(all).toEqual(expect.arrayContaining([area, area2, caseGroup, store1, store12]));
    const entity = await storeEntity('S001');
    const save = (usergroup: number[], token: string) => call(storesAction, postJson('/on-reco/v1/stores', { ...entity, usergroup, address: '変更' }, token));
    for (const [dropped, label] of [[caseGroup, 'the case manager\'s'], [area2, 'a peer area manager\'s'], [store1, 'a store-user group of S001 only']] as const) {
      const refused = await save(all.filter((id) => id !== dropped), tokens.area);
      expect(refused.status, label).toBe(403);
      const body = await refused.json();
      expect(body.error_description, label).toBe(`usergroup: you may not remove usergroup ${dropped} from the store: you could not link it back (not your own group, nor a store-user group of another of your stores).`);
      expect(body.fields, label).toEqual({ usergroup: STORE_MESSAGES.unremovableGroup });
    }
    expect(await linked()).toEqual(all);
    expect((await storeRow('S001')).address).not.toBe('変更');
    expect((await auditActions()).map((row) => row.action)).toEqual([]);
    // The case manager may not drop the area manager's group either: they could not link it back.
    expect((await save(all.filter((id) => id !== area), tokens.case)).status).toBe(403);
    // What the area manager could link back goes: a store-user group of another of their stores,
    // then (and link again) their own group.
    await db.insertInto('store_usergroups').values({ store_id: 'S002', usergroup_id: area }).execute();
    expect((await save(all.filter((id) => id !== store12), tokens.area)).status).toBe(200);
    expect((await save(all, tokens.area)).status).toBe(200);
    expect(await linked()).toEqual(all);
    // Staff may unlink anything.
    expect((await save([caseGroup], tokens.admin)).status).toBe(200);
    expect(await linked()).toEqual([caseGroup]);
  });
});

describe('GET /v1/store_users', () => {
  it('lists who can see the store: its groups\' members plus administrators and maintenance', async () => {
    const tokens = await chain();
    const response = await call(storeUsersLoader, get('/on-reco/v1/store_users?store_id=S001', tokens.area));
    expect(response.status).toBe(200);
    const users = await response.json();
    expect(users.map((user: { login_id: string }) => user.login_id).sort()).toEqual(['admin', 'area', 'case', 'maint', 'store1']);
    expect(Object.keys(users[0]).sort()).toEqual(
      ['alert_filter', 'authority', 'language', 'login_id', 'mailaddress1', 'mailaddress2', 'mailaddress3', 'notice_flg', 'tel_no', 'user_id', 'user_name', 'valid_flg'].sort(),
    );
    expect(users.find((user: { login_id: string }) => user.login_id === 'store1')).toMatchObject({ authority: 101, mailaddress1: 'store1@example.com', language: 'JP', valid_flg: 1 });
  });

  it('is 403 for store users, 404 for a store out of reach, 400 without store_id', async () => {
    const tokens = await chain();
    expect((await call(storeUsersLoader, get('/on-reco/v1/store_users?store_id=S001', tokens.store1))).status).toBe(403);
    expect((await call(storeUsersLoader, get('/on-reco/v1/store_users?store_id=S002', tokens.area))).status).toBe(404);
    expect((await call(storeUsersLoader, get('/on-reco/v1/store_users', tokens.admin))).status).toBe(400);
  });
});

describe('effective time', () => {
  it('is Japan time', async () => {
    await chain();
    await db.insertInto('gateway_pins').values({ store_id: 'S001', pin_code: '135790', effective_time: new Date('2099-01-01T00:00:00Z') }).execute();
    const body = await (await call(storesLoader, get('/on-reco/v1/stores?store_id=S001', await tokenFor('admin', TEST_PASSWORD)))).json();
    expect(body.effective_time).toBe(toCompactDateTime(new Date('2099-01-01T00:00:00Z')));
    expect(body.effective_time).toBe('20990101090000');
  });
});
