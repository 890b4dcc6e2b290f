import { beforeEach, describe, expect, it } from 'vitest';
import { japanMinuteOfDay, startOfJapanDay, toCompactDate, toCompactDateTime } from '~/domain/japan-time';
import { loader as imageLoader } from '~/routes/_app+/stores.$storeId+/temp_managements_image';
import { loader as listLoader } from '~/routes/_app+/stores.$storeId+/temp_managements_list';
import { action as loginAction } from '~/routes/_auth+/login';
import { loader as alertStatusLoader } from '~/routes/on-reco+/v1.alert_history.alert_status';
import { loader as equipmentsLoader } from '~/routes/on-reco+/v1.equipments';
import { loader as measurementLoader } from '~/routes/on-reco+/v1.equipments.measurement';
import { loader as storeSensorsLoader } from '~/routes/on-reco+/v1.store_sensors';
import { loader as sensorTodayLoader } from '~/routes/resources+/sensor-today';
import { TEST_PASSWORD, createSensor, createStore, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, postForm, tokenFor } from '../support/requests';
import { insertMeasurementRows } from '~/models/measurement-buckets.server';

const db = testDb();
beforeEach(() => resetDb());

const minute = (at: Date) => new Date(Math.floor(at.getTime() / 60_000) * 60_000);
const NOW = minute(new Date());
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

/**
 * S001: a freezer in defrost all day with an open upper-limit alert (and its readings), a
 * chilled case whose upper excursion is pending (status 1), a hidden case. S002: another
 * store's sensor with an active alert. Users: admin, a store user of each store.
 */
async function chain() {
  await createStore(db, 'S001', { store_name: '新宿西口店' });
  await createStore(db, 'S002', { store_name: '渋谷店' });
  await createStore(db, 'S003', { store_name: 'センサなし店' });
  const freezer = await createSensor(db, 'S001', 'AA:BB:CC:00:00:01', {
    equipment_name: '冷凍ケース', icon_kind: 10, location_no: 2, lower_limit: -25, upper_limit: -18, guard_time: 30, snoozing_time: 60,
    def_time: JSON.stringify([{ start: '00:00', end: '24:00' }]),
  });
  const chilled = await createSensor(db, 'S001', 'AA:BB:CC:00:00:02', { equipment_name: 'おにぎりケース', icon_kind: 16, lower_limit: 3, upper_limit: 10 });
  await db.updateTable('sensors').set({ location_no: null }).where('equipment_id', '=', chilled).execute();
  const hidden = await createSensor(db, 'S001', 'AA:BB:CC:00:00:03', { equipment_name: '予備', lower_limit: -30, upper_limit: 60 });
  await db.updateTable('sensors').set({ disp_flg: 0 }).where('equipment_id', '=', hidden).execute();
  const other = await createSensor(db, 'S002', 'AA:BB:CC:00:00:04', { equipment_name: '渋谷ケース' });

  await db.insertInto('sensor_states').values([
    {
      store_id: 'S001', equipment_id: freezer, status: 2, alert_codes: ['OE00000001'], engine_state: JSON.stringify({}),
      last_measured_at: ago(0), last_temperature: -12.5, last_battery: 80, last_receive_sensitivity: -71,
    },
    {
      store_id: 'S001', equipment_id: chilled, status: 1, alert_codes: [],
      engine_state: JSON.stringify({ lastMeasuredAt: ago(0).toISOString(), dampedTemperature: 11, pendingSince: { upper: ago(5).toISOString(), lower: null }, openAlerts: {} }),
      last_measured_at: ago(0), last_temperature: 11.04, last_battery: 9, last_receive_sensitivity: null,
    },
    { store_id: 'S002', equipment_id: other, status: 2, alert_codes: ['OE00000004'], engine_state: JSON.stringify({}), last_measured_at: ago(0), last_error: true },
  ]).execute();

  // The freezer's readings: one a minute for the last 40 minutes (today's part only), one error.
  const dayStart = startOfJapanDay(NOW);
  const readings = Array.from({ length: 41 }, (_, i) => ago(40 - i)).filter((at) => at >= dayStart);
  await insertMeasurementRows(db, readings.map((at, i) => ({
    store_id: 'S001', equipment_id: freezer, measured_at: at, temperature: at.getTime() === ago(10).getTime() ? null : -20 + i / 10, error: at.getTime() === ago(10).getTime(),
    battery: 80, receive_sensitivity: -71,
  })));
  await insertMeasurementRows(db, [{ store_id: 'S001', equipment_id: freezer, measured_at: ago(60 * 24 * 3), temperature: -21, battery: 82, receive_sensitivity: -70 }]);
  await db.insertInto('measurement_comments').values({ store_id: 'S001', equipment_id: freezer, measured_at: ago(0), comment: '霜取り後に確認' }).execute();

  await db.insertInto('alert_history').values([
    { store_id: 'S001', equipment_id: freezer, alert_id: 'OE00000001', alert_data1: '-12.5', temperature: -12.5, lower_limit: -25, upper_limit: -18, started_at: ago(0) },
    { store_id: 'S001', equipment_id: freezer, alert_id: 'OE00000003', started_at: ago(1), recovered_at: ago(0) },
    { store_id: 'S001', equipment_id: freezer, alert_id: 'OE00000002', started_at: new Date(dayStart.getTime() - 3_600_000), recovered_at: new Date(dayStart.getTime() - 1_800_000) },
    { store_id: 'S002', equipment_id: other, alert_id: 'OE00000004', alert_data1: 'ERROR', started_at: ago(3) },
  ]).execute();

  await createUser(db, 'admin', 1);
  await createUser(db, 'store1', 101, { storeIds: ['S001'] });
  await createUser(db, 'store2', 101, { storeIds: ['S002'] });
  return { freezer, chilled, hidden, other };
}

const json = async (response: Response) => {
  const body = await response.json();
  return body as any;
};

describe('GET /v1/store_sensors', () => {
  it('answers the store name and its shown sensors, lower limit ascending, with the live extension', async () => {
    const { freezer, chilled } = await chain();
    const token = await tokenFor('store1', TEST_PASSWORD);
    const response = await call(storeSensorsLoader, get('/on-reco/v1/store_sensors?store_id=S001', token));
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.store_id).toBe('S001');
    expect(body.store_name).toBe('新宿西口店');
    expect(body.sensors.map((s: { equipment_id: number }) => s.equipment_id)).toEqual([freezer, chilled]);
    expect(Object.keys(body.sensors[0]).sort()).toEqual([
      'alert_id', 'alerts', 'battery', 'disp_flg', 'equipment_id', 'equipment_name', 'guard_time', 'icon_kind', 'location_no', 'lower_limit',
      'measured_at', 'position_x', 'position_y', 'receive_sensitivity', 'serial_no', 'snoozing_time', 'status', 'temperature', 'upper_limit',
    ]);
    expect(body.sensors[0]).toMatchObject({
      equipment_name: '冷凍ケース', icon_kind: 10, location_no: 2, lower_limit: -25, upper_limit: -18, position_x: 0, position_y: 0,
      alert_id: 'OE00000001', status: 2, alerts: [{ alert_id: 'OE00000001' }],
      temperature: 'DEF', // the reading is inside the sensor's defrost range
      measured_at: toCompactDateTime(ago(0)), battery: 80, receive_sensitivity: -71, guard_time: 30, snoozing_time: 60,
    });
    // A pending excursion (guard time running): status 1, listed in alerts but not as the open alert_id.
    expect(body.sensors[1]).toMatchObject({ location_no: null, status: 1, alert_id: null, alerts: [{ alert_id: 'OE00000001' }], temperature: 11, battery: 9, receive_sensitivity: null });
  });

  it('includes hidden sensors (disp_flg 0) only with include_hidden=1', async () => {
    const { hidden } = await chain();
    const token = await tokenFor('admin', TEST_PASSWORD);
    const shown = await json(await call(storeSensorsLoader, get('/on-reco/v1/store_sensors?store_id=S001&include_hidden=0', token)));
    expect(shown.sensors.some((s: { equipment_id: number }) => s.equipment_id === hidden)).toBe(false);
    const all = await json(await call(storeSensorsLoader, get('/on-reco/v1/store_sensors?store_id=S001&include_hidden=1', token)));
    expect(all.sensors[0]).toMatchObject({ equipment_id: hidden, disp_flg: 0, temperature: null, measured_at: null, status: 0, alerts: [] });
    expect(all.sensors).toHaveLength(3);
  });

  it('answers a store without sensors with an empty list', async () => {
    await chain();
    const body = await json(await call(storeSensorsLoader, get('/on-reco/v1/store_sensors?store_id=S003', await tokenFor('admin', TEST_PASSWORD))));
    expect(body).toEqual({ store_id: 'S003', store_name: 'センサなし店', sensors: [] });
  });

  it('answers 404 for another store of a store user and for an unknown store, 401 without a token', async () => {
    await chain();
    const token = await tokenFor('store2', TEST_PASSWORD);
    const denied = await call(storeSensorsLoader, get('/on-reco/v1/store_sensors?store_id=S001', token));
    expect(denied.status).toBe(404);
    expect(JSON.stringify(await denied.json())).not.toContain('新宿');
    expect((await call(storeSensorsLoader, get('/on-reco/v1/store_sensors?store_id=NOPE', token))).status).toBe(404);
    expect((await call(storeSensorsLoader, get('/on-reco/v1/store_sensors?store_id=S001'))).status).toBe(401);
  });

  it('answers 400 with the field for bad parameters', async () => {
    await chain();
    const token = await tokenFor('admin', TEST_PASSWORD);
    for (const [query, field] of [['', 'store_id'], ['store_id=S001&include_hidden=2', 'include_hidden'], [`store_id=${'x'.repeat(21)}`, 'store_id']]) {
      const response = await call(storeSensorsLoader, get(`/on-reco/v1/store_sensors?${query}`, token));
      expect(response.status).toBe(400);
      expect((await response.json()).fields).toHaveProperty(field);
    }
  });
});

describe('GET /v1/equipments', () => {
  it('answers the detail of a visible sensor', async () => {
    const { freezer } = await chain();
    const body = await json(await call(equipmentsLoader, get(`/on-reco/v1/equipments?equipment_id=${freezer}`, await tokenFor('store1', TEST_PASSWORD))));
    // The 001 §3 sensor detail (docs/decisions/110), its time constant defaulting to 100 when unset.
    expect(body).toMatchObject({
      equipment_id: freezer, equipment_name: '冷凍ケース', icon_kind: 10, guard_time: 30, serial_no: 'AA:BB:CC:00:00:01', snoozing_time: 60,
      location_no: 2, lower_limit: -25, upper_limit: -18, store_id: 'S001', disp_flg: 1, removal_datetime: null,
    });
  });

  it('answers 404 for a sensor of another store or none, 400 for a bad id', async () => {
    const { other } = await chain();
    const token = await tokenFor('store1', TEST_PASSWORD);
    expect((await call(equipmentsLoader, get(`/on-reco/v1/equipments?equipment_id=${other}`, token))).status).toBe(404);
    expect((await call(equipmentsLoader, get('/on-reco/v1/equipments?equipment_id=999999', token))).status).toBe(404);
    for (const value of ['abc', '0', '-1', '1.5', '99999999999', '']) {
      const response = await call(equipmentsLoader, get(`/on-reco/v1/equipments?equipment_id=${value}`, token));
      expect(response.status).toBe(400);
      expect((await response.json()).fields).toHaveProperty('equipment_id');
    }
  });
});

describe('GET /v1/equipments/measurement', () => {
  it('answers the latest reading only by default, with status, alerts and its comment', async () => {
    const { freezer, chilled } = await chain();
    const token = await tokenFor('store1', TEST_PASSWORD);
    const body = await json(await call(measurementLoader, get(`/on-reco/v1/equipments/measurement?equipment_id=${freezer}`, token)));
    expect(body).toEqual({
      status: 2,
      alerts: [{ alert_id: 'OE00000001' }],
      measurement_data: [{ temperature: -12.5, battery: 80, receive_sensitivity: -71, start_date: toCompactDateTime(ago(0)), comment: '霜取り後に確認', comment_required: 0 }],
    });
    const pending = await json(await call(measurementLoader, get(`/on-reco/v1/equipments/measurement?equipment_id=${chilled}`, token)));
    expect(pending).toMatchObject({ status: 1, alerts: [{ alert_id: 'OE00000001' }], measurement_data: [{ temperature: 11 }] });
  });

  it('answers the readings of the range oldest first; ERROR for an error reading; DEF inside defrost with convert_def=1', async () => {
    const { freezer } = await chain();
    const token = await tokenFor('store1', TEST_PASSWORD);
    const since = toCompactDateTime(ago(12));
    const until = toCompactDateTime(ago(8));
    const raw = await json(await call(measurementLoader, get(`/on-reco/v1/equipments/measurement?equipment_id=${freezer}&since=${since}&until=${until}&convert_def=0`, token)));
    const inRange = raw.measurement_data as { start_date: string; temperature: unknown }[];
    expect(inRange.map((point) => point.start_date)).toEqual([12, 11, 10, 9, 8].map((m) => toCompactDateTime(ago(m))).filter((d) => d >= toCompactDateTime(startOfJapanDay(NOW))));
    if (inRange.length === 5) {
      expect(inRange[2].temperature).toBe('ERROR');
      expect(typeof inRange[0].temperature).toBe('number');
    }
    const converted = await json(await call(measurementLoader, get(`/on-reco/v1/equipments/measurement?equipment_id=${freezer}&since=${since}&until=${until}&convert_def=1`, token)));
    expect(converted.measurement_data.map((point: { temperature: unknown }) => point.temperature)).toEqual(inRange.map((point) => (point.temperature === 'ERROR' ? 'ERROR' : 'DEF')));
    // since alone reads up to now; three days back holds the older reading.
    const sinceOnly = await json(await call(measurementLoader, get(`/on-reco/v1/equipments/measurement?equipment_id=${freezer}&since=${toCompactDateTime(ago(60 * 24 * 4))}`, token)));
    expect(sinceOnly.measurement_data[0]).toMatchObject({ temperature: -21, start_date: toCompactDateTime(ago(60 * 24 * 3)) });
  });

  it('refuses ranges over 31 days, malformed or impossible dates, and until before since with 400', async () => {
    const { freezer } = await chain();
    const token = await tokenFor('store1', TEST_PASSWORD);
    const cases: [string, string][] = [
      ['since=20260101000000&until=20260202000000', 'since'],
      ['since=2026010100', 'since'],
      ['since=20260231000000&until=20260301000000', 'since'],
      ['since=20260110000000&until=20260101000000', 'until'],
      ['until=2026-01-01', 'until'],
      ['convert_def=yes', 'convert_def'],
    ];
    for (const [query, field] of cases) {
      const response = await call(measurementLoader, get(`/on-reco/v1/equipments/measurement?equipment_id=${freezer}&${query}`, token));
      expect(response.status, query).toBe(400);
      expect((await response.json()).fields, query).toHaveProperty(field);
    }
    const month = await call(measurementLoader, get(`/on-reco/v1/equipments/measurement?equipment_id=${freezer}&since=20260101000000&until=20260201000000`, token));
    expect(month.status).toBe(200); // exactly 31 days
  });

  it('answers 404 for a sensor of another store', async () => {
    const { other } = await chain();
    const response = await call(measurementLoader, get(`/on-reco/v1/equipments/measurement?equipment_id=${other}`, await tokenFor('store1', TEST_PASSWORD)));
    expect(response.status).toBe(404);
  });
});

describe('GET /v1/alert_history/alert_status', () => {
  it('lists the active pairs of the given sensors, only in stores the viewer may see', async () => {
    const { freezer, chilled, other } = await chain();
    const store1 = await tokenFor('store1', TEST_PASSWORD);
    const body = await json(await call(alertStatusLoader, get(`/on-reco/v1/alert_history/alert_status?equipment_id=${freezer},${chilled},${other}`, store1)));
    expect(body).toEqual({ status: [{ equipment_id: freezer, alert_id: 'OE00000001' }] });
    const admin = await json(await call(alertStatusLoader, get(`/on-reco/v1/alert_history/alert_status?equipment_id=${other},${freezer}`, await tokenFor('admin', TEST_PASSWORD))));
    expect(admin.status).toHaveLength(2);
  });

  it('answers 400 for a missing or malformed list', async () => {
    await chain();
    const token = await tokenFor('admin', TEST_PASSWORD);
    for (const query of ['', 'equipment_id=', 'equipment_id=1,a', 'equipment_id=1,,2', `equipment_id=${Array.from({ length: 201 }, (_, i) => i + 1).join(',')}`]) {
      const response = await call(alertStatusLoader, get(`/on-reco/v1/alert_history/alert_status?${query}`, token));
      expect(response.status, query).toBe(400);
      expect((await response.json()).fields, query).toHaveProperty('equipment_id');
    }
  });
});

// ---- the console pages --------------------------------------------------------------------------

async function sessionOf(loginId: string): Promise<string> {
  const login = await call(loginAction, postForm('/login', { username: loginId, password: TEST_PASSWORD }));
  return login.headers.get('Set-Cookie')!.split(';')[0];
}

describe('sensor views (console)', () => {
  it('loads the image and list views in the default and the chosen order', async () => {
    const { freezer, chilled } = await chain();
    const cookie = await sessionOf('store1');
    const image = await json(await call(imageLoader, get('/stores/S001/temp_managements_image', undefined, { Cookie: cookie }), { storeId: 'S001' }));
    expect(image.store.store_name).toBe('新宿西口店');
    expect(image.store.sensors.map((s: { equipment_id: number }) => s.equipment_id)).toEqual([freezer, chilled]);
    const list = await json(await call(listLoader, get('/stores/S001/temp_managements_list?sort=name&order=asc', undefined, { Cookie: cookie }), { storeId: 'S001' }));
    expect(list.sort).toEqual({ key: 'name', direction: 'asc' });
    expect(list.store.sensors.map((s: { equipment_id: number }) => s.equipment_id)).toEqual([chilled, freezer]); // 00 before 02
    const bogus = await json(await call(listLoader, get('/stores/S001/temp_managements_list?sort=drop&order=sideways', undefined, { Cookie: cookie }), { storeId: 'S001' }));
    expect(bogus.sort).toEqual({ key: null, direction: 'asc' });
  });

  it('sends a store user to /not_found for another store', async () => {
    await chain();
    const cookie = await sessionOf('store2');
    for (const loader of [imageLoader, listLoader]) {
      const response = await call(loader, get('/stores/S001/temp_managements_image', undefined, { Cookie: cookie }), { storeId: 'S001' });
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toBe('/not_found');
    }
  });

  it("answers the popup's today: the alerts started today and the readings by 10 minutes", async () => {
    const { freezer, other } = await chain();
    const cookie = await sessionOf('store1');
    const response = await call(sensorTodayLoader, get(`/resources/sensor-today?store_id=S001&equipment_id=${freezer}`, undefined, { Cookie: cookie }));
    const today = await json(response);
    expect(today.equipment_id).toBe(freezer);
    expect(today.day).toBe(toCompactDate(NOW));
    expect(today.alert_count).toBe(2); // yesterday's does not count
    const nowMinute = japanMinuteOfDay(NOW);
    expect(today.points.length).toBeGreaterThan(0);
    expect(today.points.length).toBeLessThanOrEqual(5);
    expect(today.points.every((p: { minute: number }) => p.minute % 10 === 0 && p.minute <= nowMinute)).toBe(true);
    const denied = await call(sensorTodayLoader, get(`/resources/sensor-today?store_id=S002&equipment_id=${other}`, undefined, { Cookie: cookie }));
    expect(denied.status).toBe(404);
    const wrongStore = await call(sensorTodayLoader, get(`/resources/sensor-today?store_id=S002&equipment_id=${freezer}`, undefined, { Cookie: await sessionOf('admin') }));
    expect(wrongStore.status).toBe(404);
    const bad = await call(sensorTodayLoader, get('/resources/sensor-today?store_id=S001&equipment_id=x', undefined, { Cookie: cookie }));
    expect(bad.status).toBe(400);
  });
});
