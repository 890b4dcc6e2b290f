import { beforeEach, describe, expect, it } from 'vitest';
import { toCompactDateTime } from '~/domain/japan-time';
import { settingsInForce } from '~/models/sensor-settings.server';
import { scheduledDaysInMonth } from '~/models/alert-schedules.server';
import { action as editAction, loader as editLoader } from '~/routes/_app+/stores.$storeId+/sensors.$sensorId.edit';
import { loader as showLoader } from '~/routes/_app+/stores.$storeId+/sensors.show';
import { loader as graphLoader } from '~/routes/_app+/stores.$storeId+/temp_graphs';
import { action as saveAction, loader as detailLoader } from '~/routes/on-reco+/v1.equipments';
import { loader as listLoader } from '~/routes/on-reco+/v1.equipments.list';
import { loader as unregisteredLoader } from '~/routes/on-reco+/v1.equipments.unregistered';
import { loader as configLoader } from '~/routes/on-reco+/v1.gateway.config';
import { action as heardAction } from '~/routes/on-reco+/v1.gateway.heard';
import { action as pairAction } from '~/routes/on-reco+/v1.gateway.pair';
import { action as readingsAction } from '~/routes/on-reco+/v1.gateway.readings';
import { loader as kindsLoader } from '~/routes/on-reco+/v1.measure_target_equipments';
import { action as loginAction } from '~/routes/_auth+/login';
import { TEST_PASSWORD, createSensor, createStore, createUser, issuePin } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { BASE, call, get, postForm, postJson, tokenFor } from '../support/requests';

const db = testDb();
beforeEach(() => resetDb());

const SERIAL = 'AA:BB:CC:00:00:01';

/** S001 with one sensor (0〜10℃, time constant 1: a reading above opens an alert at once), S002 with one; users of each role. */
async function chain() {
  await createStore(db, 'S001', { store_name: '新宿店' });
  await createStore(db, 'S002', { store_name: '渋谷店' });
  const sensor = await createSensor(db, 'S001', SERIAL, { equipment_name: '冷蔵ケース', upper_limit: 10, lower_limit: 0 });
  const other = await createSensor(db, 'S002', 'AA:BB:CC:00:00:02', { equipment_name: '他店のケース' });
  await createUser(db, 'admin', 1);
  await createUser(db, 'maint', 10);
  await createUser(db, 'area', 30, { storeIds: ['S001'] });
  await createUser(db, 'store1', 101, { storeIds: ['S001'] });
  const tokens: Record<string, string> = {};
  for (const login of ['admin', 'maint', 'area', 'store1']) tokens[login] = await tokenFor(login, TEST_PASSWORD);
  return { sensor, other, tokens };
}

async function gatewayToken(storeId: string) {
  const pin = await issuePin(db, storeId);
  const response = await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: `GW-${storeId}`, pin_code: pin }));
  return (await response.json()).gateway_token as string;
}

const minutesAgo = (minutes: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - minutes * 60_000);

async function detail(token: string, equipmentId: number) {
  const response = await call(detailLoader, get(`/on-reco/v1/equipments?equipment_id=${equipmentId}`, token));
  return { status: response.status, body: await response.json() };
}

const update = (equipmentId: number, updatedAt: string, fields: Record<string, unknown> = {}) => ({
  store_id: 'S001',
  equipment_id: equipmentId,
  updated_at: updatedAt,
  equipment_name: '冷蔵ケース',
  lower_limit: 0,
  upper_limit: 10,
  icon_kind: 3,
  ...fields,
});

const sensorRow = (equipmentId: number) => db.selectFrom('sensors').selectAll().where('equipment_id', '=', equipmentId).executeTakeFirstOrThrow();

describe('the sensor calls', () => {
  it('lists the store\'s sensors with the 001 fields, and refuses another store (404) and store users (403)', async () => {
    const { sensor, tokens } = await chain();
    const response = await call(listLoader, get('/on-reco/v1/equipments/list?store_id=S001', tokens.area));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.store_name).toBe('新宿店');
    expect(body.equipments).toHaveLength(1);
    expect(body.equipments[0]).toMatchObject({ equipment_id: sensor, equipment_name: '冷蔵ケース', lower_limit: 0, upper_limit: 10, serial_no: SERIAL, last_battery: null, disp_flg: 1 });
    expect((await call(listLoader, get('/on-reco/v1/equipments/list?store_id=S002', tokens.area))).status).toBe(404);
    expect((await call(listLoader, get('/on-reco/v1/equipments/list?store_id=S001', tokens.store1))).status).toBe(403);
  });

  it('answers the detail with the 001 fields (time constant, defrost, updated_at) and hides other stores\' sensors', async () => {
    const { sensor, other, tokens } = await chain();
    const { status, body } = await detail(tokens.area, sensor);
    expect(status).toBe(200);
    expect(body).toMatchObject({ equipment_id: sensor, store_id: 'S001', serial_no: SERIAL, time_constant: 1, def_time: [], disp_flg: 1, removal_datetime: null });
    expect(body.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect((await detail(tokens.area, other)).status).toBe(404);
  });

  it('lists the measured furniture kinds', async () => {
    const { tokens } = await chain();
    const response = await call(kindsLoader, get('/on-reco/v1/measure_target_equipments', tokens.store1));
    expect(response.status).toBe(200);
    const kinds = await response.json();
    expect(Array.isArray(kinds)).toBe(true);
    for (const kind of kinds) expect(kind).toEqual({ measure_target_equipment_kind_id: expect.any(Number), measure_target_equipment_kind_name: expect.any(String) });
  });

  it('updates a sensor: the next reading is judged with the new limits, a widened limit recovers the open alert, with history and audit', async () => {
    const { sensor, tokens } = await chain();
    const gateway = await gatewayToken('S001');
    const post = (minutes: number, temperature: number) =>
      call(readingsAction, postJson('/on-reco/v1/gateway/readings', { readings: [{ serial_no: SERIAL, measured_at: toCompactDateTime(minutesAgo(minutes)), temperature, error: false, battery: 80, receive_sensitivity: -60 }] }, gateway));
    expect((await post(5, 14)).status).toBe(200);
    const [open] = await db.selectFrom('alert_history').selectAll().where('equipment_id', '=', sensor).execute();
    expect(open).toMatchObject({ alert_id: 'OE00000001', recovered_at: null });

    const { body } = await detail(tokens.area, sensor);
    const saved = await call(saveAction, postJson('/on-reco/v1/equipments', update(sensor, body.updated_at, { upper_limit: 20, guard_time: 30, snoozing_time: 60, def_time: [{ start: '05:00', end: '05:30' }, { start: '02:00', end: '02:30' }], time_constant: 80 }), tokens.area));
    expect(saved.status).toBe(200);
    const answer = await saved.json();
    expect(answer).toMatchObject({ store_id: 'S001', equipment_id: sensor });
    expect(answer.updated_at).not.toBe(body.updated_at);
    const row = await sensorRow(sensor);
    expect(row).toMatchObject({ upper_limit: 20, guard_time: 30, snoozing_time: 60, time_constant: 80 });
    expect(row.def_time).toEqual([{ start: '02:00', end: '02:30' }, { start: '05:00', end: '05:30' }]);

    // The very next reading, still 14℃, is inside the widened limit: the alert recovers.
    expect((await post(4, 14)).status).toBe(200);
    const [after] = await db.selectFrom('alert_history').selectAll().where('equipment_id', '=', sensor).execute();
    expect(after.recovered_at).not.toBeNull();

    const history = await db.selectFrom('sensor_settings_history').selectAll().where('equipment_id', '=', sensor).orderBy('effective_from').execute();
    expect(history.map((period) => [period.upper_limit, period.effective_to === null])).toEqual([[10, false], [20, true]]);
    const [entry] = await db.selectFrom('audit_log').selectAll().where('action', '=', 'sensor.update').execute();
    expect(entry.details).toMatchObject({ before: { upper_limit: 10, guard_time: null }, after: { upper_limit: 20, guard_time: 30 } });
  });

  it('refuses a stale save (someone saved since): 409, nothing changes', async () => {
    const { sensor, tokens } = await chain();
    const { body } = await detail(tokens.area, sensor);
    expect((await call(saveAction, postJson('/on-reco/v1/equipments', update(sensor, body.updated_at, { upper_limit: 12 }), tokens.admin))).status).toBe(200);
    const before = await sensorRow(sensor);
    const second = await call(saveAction, postJson('/on-reco/v1/equipments', update(sensor, body.updated_at, { upper_limit: 15 }), tokens.area));
    expect(second.status).toBe(409);
    expect((await second.json()).error).toBe('conflict');
    expect(await sensorRow(sensor)).toEqual(before);
    expect(await db.selectFrom('audit_log').select('action').where('action', '=', 'sensor.update').execute()).toHaveLength(1);
  });

  it('refuses bad values with the 001 §5 messages at the fields, changing nothing', async () => {
    const { sensor, tokens } = await chain();
    const { body } = await detail(tokens.area, sensor);
    const before = await sensorRow(sensor);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ lower_limit: null }, 'lower_limit', '入力の範囲が違います'],
      [{ upper_limit: 'abc' }, 'upper_limit', '半角数値を入力してください'],
      [{ lower_limit: -30.5 }, 'lower_limit', '入力の範囲が違います'],
      [{ upper_limit: 60.5 }, 'upper_limit', '入力の範囲が違います'],
      [{ lower_limit: 11 }, 'lower_limit', '入力の範囲が違います'],
      [{ upper_limit: '5.25' }, 'upper_limit', 'フォーマットが違います'],
      [{ guard_time: 361 }, 'guard_time', '範囲が違います'],
      [{ snoozing_time: 1441 }, 'snoozing_time', '範囲が違います'],
      [{ time_constant: 201 }, 'time_constant', '範囲が違います'],
      [{ guard_time: '1.5' }, 'guard_time', '数字を入力してください'],
      [{ equipment_name: '' }, 'equipment_name', '入力してください'],
      [{ equipment_name: 'あ'.repeat(31) }, 'equipment_name', '30文字以内で入力してください'],
      [{ icon_kind: null }, 'icon_kind', '選択してください'],
      [{ def_time: [{ start: '03:00', end: '02:00' }] }, 'def_time.0', '開始は終了より前にしてください'],
      [{ def_time: [{ start: '02:00', end: '03:00' }, { start: '02:30', end: '04:00' }] }, 'def_time.1', '時間帯が重複しています'],
      [{ def_time: [{ start: '02:00', end: '03:00' }, { start: '02:00', end: '03:00' }] }, 'def_time.1', '時間帯が重複しています'],
      [{ def_time: [{ start: '2時', end: '03:00' }] }, 'def_time.0', 'フォーマットが違います'],
      [{ installation_datetime: '20250231' }, 'installation_datetime', 'フォーマットが違います'],
    ];
    for (const [fields, field, message] of cases) {
      const response = await call(saveAction, postJson('/on-reco/v1/equipments', update(sensor, body.updated_at, fields), tokens.area));
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect((await response.json()).fields[field], JSON.stringify(fields)).toBe(message);
    }
    expect(await sensorRow(sensor)).toEqual(before);
  });

  it('refuses another store\'s sensor (404) and a sensor named under the wrong store (404)', async () => {
    const { other, tokens } = await chain();
    const { body } = await detail(tokens.admin, other);
    expect((await call(saveAction, postJson('/on-reco/v1/equipments', { ...update(other, body.updated_at), store_id: 'S002' }, tokens.area))).status).toBe(404);
    expect((await call(saveAction, postJson('/on-reco/v1/equipments', update(other, body.updated_at), tokens.admin))).status).toBe(404);
  });

  it('registers a heard sensor: listed as unregistered until registered, then in the gateway config; a removal date takes it out', async () => {
    const { tokens } = await chain();
    const gateway = await gatewayToken('S001');
    const heard = (serial: string, minutes: number, temperature: number) => ({ serial_no: serial, format: 'atc1441', temperature, receive_sensitivity: -71, heard_at: toCompactDateTime(minutesAgo(minutes)) });
    const report = await call(heardAction, postJson('/on-reco/v1/gateway/heard', { sensors: [heard('c0:ff:ee:00:00:01', 3, 4.5), heard('C0:FF:EE:00:00:01', 5, 9.9), heard(SERIAL, 1, 5)] }, gateway));
    expect(report.status).toBe(200);
    // An older report never replaces a newer one.
    await call(heardAction, postJson('/on-reco/v1/gateway/heard', { sensors: [heard('C0:FF:EE:00:00:01', 10, 1)] }, gateway));
    const list = await (await call(unregisteredLoader, get('/on-reco/v1/equipments/unregistered?store_id=S001', tokens.maint))).json();
    expect(list.sensors).toEqual([{ serial_no: 'C0:FF:EE:00:00:01', format: 'atc1441', temperature: 4.5, receive_sensitivity: -71, heard_at: expect.any(String) }]);
    expect((await call(unregisteredLoader, get('/on-reco/v1/equipments/unregistered?store_id=S001', tokens.area))).status).toBe(403);
    expect((await call(unregisteredLoader, get('/on-reco/v1/equipments/unregistered?store_id=S001', tokens.admin))).status).toBe(200);
    expect((await call(heardAction, postJson('/on-reco/v1/gateway/heard', { sensors: [] }, tokens.admin))).status).toBe(401);

    const registration = { store_id: 'S001', serial_no: 'C0:FF:EE:00:00:01', equipment_name: '新しいケース', icon_kind: 10, lower_limit: -25, upper_limit: -15 };
    expect((await call(saveAction, postJson('/on-reco/v1/equipments', registration, tokens.area))).status).toBe(403);
    const created = await call(saveAction, postJson('/on-reco/v1/equipments', registration, tokens.maint));
    expect(created.status).toBe(201);
    const { equipment_id, updated_at } = await created.json();
    expect((await call(saveAction, postJson('/on-reco/v1/equipments', registration, tokens.maint))).status).toBe(400);
    expect((await (await call(unregisteredLoader, get('/on-reco/v1/equipments/unregistered?store_id=S001', tokens.maint))).json()).sensors).toEqual([]);
    const config = async () => (await (await call(configLoader, get('/on-reco/v1/gateway/config', gateway))).json()).sensors.map((s: { serial_no: string }) => s.serial_no);
    expect(await config()).toContain('C0:FF:EE:00:00:01');
    const [created_audit] = await db.selectFrom('audit_log').selectAll().where('action', '=', 'sensor.create').execute();
    expect(created_audit.details).toMatchObject({ before: null, after: { serial_no: 'C0:FF:EE:00:00:01', lower_limit: -25 } });

    const yesterday = toCompactDateTime(minutesAgo(24 * 60)).slice(0, 8);
    const removed = await call(saveAction, postJson('/on-reco/v1/equipments', { ...registration, equipment_id, updated_at, removal_datetime: yesterday }, tokens.area));
    expect(removed.status).toBe(200);
    expect(await config()).not.toContain('C0:FF:EE:00:00:01');
  });
});

describe('settings in force', () => {
  it('gives last month\'s limits for last month after this month\'s change', async () => {
    const { sensor, tokens } = await chain();
    // The sensor has existed since 60 days ago.
    await db.updateTable('sensors').set({ created_at: minutesAgo(60 * 24 * 60) }).where('equipment_id', '=', sensor).execute();
    const { body } = await detail(tokens.area, sensor);
    await call(saveAction, postJson('/on-reco/v1/equipments', update(sensor, body.updated_at, { upper_limit: 8, def_time: [{ start: '02:00', end: '02:30' }] }), tokens.area));
    const lastMonth = minutesAgo(35 * 24 * 60);
    const periods = await settingsInForce(db, 'S001', [sensor], lastMonth, minutesAgo(25 * 24 * 60));
    expect(periods).toEqual([{ equipmentId: sensor, from: expect.any(Date), to: expect.any(Date), lowerLimit: 0, upperLimit: 10, defrost: [] }]);
    const now = await settingsInForce(db, 'S001', [sensor], lastMonth, new Date(Date.now() + 60_000));
    expect(now.map((period) => [period.upperLimit, period.defrost.length, period.to === null])).toEqual([[10, 0, false], [8, 1, true]]);
  });
});

describe('the temperature graph over time', () => {
  it('draws last month\'s limits and defrost for last month after this month\'s change, and a step on the day of the change', async () => {
    const { sensor, tokens } = await chain();
    await db.updateTable('sensors').set({ created_at: minutesAgo(60 * 24 * 60) }).where('equipment_id', '=', sensor).execute();
    const { body } = await detail(tokens.area, sensor);
    const saved = await call(saveAction, postJson('/on-reco/v1/equipments', update(sensor, body.updated_at, { lower_limit: 1, upper_limit: 8, def_time: [{ start: '02:00', end: '02:30' }] }), tokens.area));
    expect(saved.status).toBe(200);
    const cookie = (await call(loginAction, postForm('/login', { username: 'area', password: TEST_PASSWORD }))).headers.get('Set-Cookie')!.split(';')[0];
    const panelOf = async (day: string) => {
      const response = await call(graphLoader, get(`/stores/S001/temp_graphs?equipment_id=${sensor}&unit=day&start_date=${day}`, undefined, { Cookie: cookie }), { storeId: 'S001' });
      return (await response.json()).panels[0];
    };
    const lastMonth = await panelOf(toCompactDateTime(minutesAgo(35 * 24 * 60)).slice(0, 8));
    expect(lastMonth).toMatchObject({ limits: [0, 10], limitSteps: [{ start: 0, end: 1440, lower: 0, upper: 10 }], defrost: [] });
    expect(lastMonth.thresholdBands).toEqual([{ from: -30, to: 0 }, { from: 10, to: 60 }]);
    const today = await panelOf(toCompactDateTime(new Date()).slice(0, 8));
    expect(today.limitSteps.map((step: { lower: number; upper: number }) => [step.lower, step.upper])).toEqual([[0, 10], [1, 8]]);
    expect(today.limitSteps[0].end).toBe(today.limitSteps[1].start);
    expect(today.thresholdBands).toHaveLength(4);
  });
});

describe('the alert-stop calendar days', () => {
  it('expands weekly, daily and free-period schedules into the month\'s days', async () => {
    await createStore(db, 'S001');
    const insert = (values: Record<string, unknown>) =>
      db.insertInto('alert_schedules').values({ store_id: 'S001', schedule_type: 1, term_type: 2, start_date: '2026-11-10', end_date: null, time_target_type: 1, sun_flg: 0, mon_flg: 0, tue_flg: 0, wed_flg: 0, thu_flg: 0, fri_flg: 0, sat_flg: 0, ...values }).execute();
    await insert({ term_type: 2, start_date: '2026-11-10', end_date: '2026-11-10' });
    await insert({ term_type: 3, start_date: '2026-10-30', end_date: '2026-11-02' });
    await insert({ schedule_type: 2, term_type: 1, start_date: '2026-11-20', end_date: null, mon_flg: 1 });
    expect(await scheduledDaysInMonth(db, 'S001', 2026, 11)).toEqual(['20261101', '20261102', '20261110', '20261123', '20261130']);
    expect(await scheduledDaysInMonth(db, 'S001', 2026, 9)).toEqual([]);
  });
});

describe('the console pages', () => {
  async function session(login: string) {
    const response = await call(loginAction, postForm('/login', { username: login, password: TEST_PASSWORD }));
    return { Cookie: response.headers.get('Set-Cookie')!.split(';')[0] };
  }

  it('sensors show: the sensors tab lists unregistered sensors for store management only; each tab loads its data', async () => {
    const { tokens } = await chain();
    const gateway = await gatewayToken('S001');
    await call(heardAction, postJson('/on-reco/v1/gateway/heard', { sensors: [{ serial_no: 'C0:FF:EE:00:00:09', format: 'bthome', temperature: null, receive_sensitivity: null, heard_at: toCompactDateTime(minutesAgo(1)) }] }, gateway));
    void tokens;
    const load = async (login: string, query = '') => {
      const response = await call(showLoader, new Request(`${BASE}/stores/S001/sensors/show${query}`, { headers: await session(login) }), { storeId: 'S001' });
      return { status: response.status, body: response.status === 200 ? await response.json() : null };
    };
    const maint = await load('maint');
    expect(maint.body.tab).toBe('sensors');
    expect(maint.body.unregistered.map((s: { serial_no: string }) => s.serial_no)).toEqual(['C0:FF:EE:00:00:09']);
    expect((await load('area')).body.unregistered).toBeNull();
    expect((await load('area', '?tab=users')).body.users.length).toBeGreaterThan(0);
    expect((await load('area', '?tab=alert-stop&month=202611')).body.calendar).toEqual({ year: 2026, month: 11, days: [] });
    expect((await load('area', '?tab=furniture')).body.sensors).toHaveLength(1);
    expect((await load('area', '?tab=diagram')).body.diagram).toBeNull();
    await expect(call(showLoader, new Request(`${BASE}/stores/S001/sensors/show`, { headers: await session('store1') }), { storeId: 'S001' })).resolves.toHaveProperty('status', 403);
  });

  it('sensor edit: a form save with bad values answers the messages at the fields; a good one redirects to the show page', async () => {
    const { sensor } = await chain();
    const headers = await session('area');
    const page = await (await call(editLoader, new Request(`${BASE}/stores/S001/sensors/${sensor}/edit`, { headers }), { storeId: 'S001', sensorId: String(sensor) })).json();
    const form = (fields: Record<string, string>) =>
      new Request(`${BASE}/stores/S001/sensors/${sensor}/edit`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ updated_at: page.initial.updated_at, equipment_name: '冷蔵ケース', lower_limit: '1.5', upper_limit: '', icon_kind: '3', time_constant: '100', disp_flg: '1', def_start_0: '', def_end_0: '', ...fields }),
      });
    const refused = await call(editAction, form({}), { storeId: 'S001', sensorId: String(sensor) });
    expect(refused.status).toBe(400);
    expect((await refused.json()).fields).toEqual({ upper_limit: '入力の範囲が違います' });
    const saved = await call(editAction, form({ upper_limit: '9.5', installation_datetime: '2026-11-01', def_start_0: '01:00', def_end_0: '01:20' }), { storeId: 'S001', sensorId: String(sensor) });
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe('/stores/S001/sensors/show?tab=sensors');
    expect(await sensorRow(sensor)).toMatchObject({ lower_limit: 1.5, upper_limit: 9.5, installation_datetime: '2026-11-01', def_time: [{ start: '01:00', end: '01:20' }] });
    // The same (now stale) token again: refused with the message, nothing changes.
    const stale = await call(editAction, form({ upper_limit: '7' }), { storeId: 'S001', sensorId: String(sensor) });
    expect(stale.status).toBe(409);
    expect((await stale.json()).message).toContain('他のユーザーによって更新されました');
    // Another store's sensor is /not_found.
    const elsewhere = await call(editLoader, new Request(`${BASE}/stores/S001/sensors/999999/edit`, { headers }), { storeId: 'S001', sensorId: '999999' }).catch((error: Response) => error);
    expect((elsewhere as Response).headers.get('Location')).toBe('/not_found');
  });
});
