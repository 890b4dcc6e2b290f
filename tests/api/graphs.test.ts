import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { graphPeriod } from '~/domain/graph';
import { fromJapan, toCompactDate, toCompactDateTime } from '~/domain/japan-time';
import { readGraphSeries } from '~/models/graph.server';
import type { Viewer } from '~/models/users.server';
import { action as pageAction, loader as pageLoader } from '~/routes/_app+/stores.$storeId+/temp_graphs';
import { action as loginAction } from '~/routes/_auth+/login';
import { loader as measurementLoader } from '~/routes/on-reco+/v1.equipments.measurement';
import { action as commentAction, loader as commentLoader } from '~/routes/on-reco+/v1.equipments.measurement.comment';
import { loader as csvLoader } from '~/routes/on-reco+/v1.equipments.measurement.csv';
import { action as pairAction } from '~/routes/on-reco+/v1.gateway.pair';
import { action as readingsAction } from '~/routes/on-reco+/v1.gateway.readings';
import { loader as consoleCsvLoader } from '~/routes/_app+/stores.$storeId+/temp_graphs[.]csv';
import { TEST_PASSWORD, countRows, createSensor, createStore, createUser, issuePin } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { BASE, call, get, postForm, postJson, tokenFor } from '../support/requests';
import { deleteMeasurements, insertMeasurementRows } from '~/models/measurement-buckets.server';

const db = testDb();
beforeEach(() => resetDb());

/** "YYYY/MM/DD HH:mm(:ss)" Japan time. */
function jst(value: string): Date {
  const [y, mo, d, h = 0, mi = 0, s = 0] = value.split(/[/ :]/).map(Number);
  return fromJapan(y, mo, d, h, mi, s);
}

/** Readings written with their buckets, repeats skipped, as ingest writes them. */
async function insertReadings(storeId: string, equipmentId: number, rows: [at: string, temperature: number | null][]) {
  await insertMeasurementRows(db, rows.map(([at, temperature]) => ({ store_id: storeId, equipment_id: equipmentId, measured_at: jst(at), temperature, error: temperature === null, battery: 80, receive_sensitivity: -65 })));
}

interface Chain {
  fridge: number;
  freezer: number;
  other: number;
}

/** S001 with a fridge (comments on) and a freezer (comments off), S002 with one sensor; users of each. */
async function chain(): Promise<Chain> {
  await createStore(db, 'S001');
  await createStore(db, 'S002');
  const fridge = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01', { equipment_name: '冷蔵ケース', lower_limit: 0, upper_limit: 10, def_time: '[{"start":"02:00","end":"02:30"}]' });
  const freezer = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:02', { equipment_name: '冷凍ケース', lower_limit: -25, upper_limit: -15, icon_kind: 10 });
  const other = await createSensor(db, 'S002', 'AA:BB:CC:DD:EE:03');
  await db.updateTable('sensors').set({ comment_required: 1 }).where('equipment_id', '=', fridge).execute();
  await createUser(db, 'admin', 1);
  await createUser(db, 'store1', 101, { storeIds: ['S001'] });
  await createUser(db, 'store2', 101, { storeIds: ['S002'] });
  return { fridge, freezer, other };
}

async function sessionOf(loginId: string): Promise<string> {
  const login = await call(loginAction, postForm('/login', { username: loginId, password: TEST_PASSWORD }));
  return login.headers.get('Set-Cookie')!.split(';')[0];
}

const admin: Viewer = { userId: 0, loginId: 'x', userName: 'x', authority: 1, language: 'JP', mailaddress1: null };

describe('graph series (10-minute buckets kept by the trigger)', () => {
  it('rounds readings to the nearest 10 minutes and averages each slot', async () => {
    const { fridge, freezer } = await chain();
    await insertReadings('S001', fridge, [
      ['2026/11/19 23:56', 2.0], // rounds onto 11/20 00:00
      ['2026/11/20 00:04', 4.0],
      ['2026/11/20 00:05', 6.0], // rounds up to 00:10
      ['2026/11/20 00:14:59', 7.0],
      ['2026/11/20 00:20', null], // an error reading counts for nothing
      ['2026/11/20 23:54', 3.0], // the day's last slot, 23:50
      ['2026/11/20 23:55', 9.0], // the next day
    ]);
    await insertReadings('S001', freezer, [['2026/11/20 12:00', -18.44]]);
    const [a, b] = await readGraphSeries(db, admin, { storeId: 'S001', equipmentIds: [fridge, freezer], period: graphPeriod('day', '20261120') });
    expect(a.points).toEqual([[0, 3], [1, 6.5], [143, 3]]);
    expect(b.points).toEqual([[72, -18.4]]);
  });

  it('gathers 30 minutes a week and an hour a month from the buckets', async () => {
    const { fridge } = await chain();
    await insertReadings('S001', fridge, [
      ['2026/11/15 00:10', 1.0],
      ['2026/11/15 00:14', 3.0], // bucket 00:10 → week slot 0
      ['2026/11/15 00:16', 5.0], // bucket 00:20 → week slot 1 (00:30)
      ['2026/11/01 00:24', 8.0], // bucket 00:20 → month slot 0
      ['2026/11/01 00:26', 10.0], // bucket 00:30 → month slot 1 (half-way up)
    ]);
    const [week] = await readGraphSeries(db, admin, { storeId: 'S001', equipmentIds: [fridge], period: graphPeriod('week', '20261120') });
    expect(week.points).toEqual([[0, 2], [1, 5]]);
    const [month] = await readGraphSeries(db, admin, { storeId: 'S001', equipmentIds: [fridge], period: graphPeriod('month', '20261120') });
    expect(month.points.slice(0, 2)).toEqual([[0, 8], [1, 10]]);
  });

  it('keeps the buckets exact through duplicates and deletes', async () => {
    const { fridge } = await chain();
    await insertReadings('S001', fridge, [['2026/11/20 10:00', 4.0], ['2026/11/20 10:01', 6.0]]);
    await insertReadings('S001', fridge, [['2026/11/20 10:00', 40.0], ['2026/11/20 10:02', 8.0]]); // the first is a duplicate
    const bucket = () => db.selectFrom('measurement_buckets').selectAll().where('equipment_id', '=', fridge).execute();
    expect(await bucket()).toMatchObject([{ temperature_sum: 18, temperature_count: 3 }]);
    await deleteMeasurements(db, { equipmentIds: [fridge], from: jst('2026/11/20 10:02'), until: jst('2026/11/20 10:02:01') });
    expect(await bucket()).toMatchObject([{ temperature_sum: 10, temperature_count: 2 }]);
    await deleteMeasurements(db, { equipmentIds: [fridge] });
    expect(await bucket()).toEqual([]);
  });

  it('counts what the gateway ingest stores, once', async () => {
    const { fridge } = await chain();
    const pin = await issuePin(db, 'S001');
    const token = ((await (await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: 'GW-S001', pin_code: pin }))).json()) as { gateway_token: string }).gateway_token;
    const minute = Math.floor(Date.now() / 600_000) * 600_000 - 3_600_000; // a whole 10 minutes, an hour ago
    const readings = [0, 1, 2].map((i) => ({ serial_no: 'AA:BB:CC:DD:EE:01', measured_at: toCompactDateTime(new Date(minute + i * 60_000)), temperature: 4 + i, error: false, battery: 80, receive_sensitivity: -70 }));
    for (let i = 0; i < 2; i++) {
      const response = await call(readingsAction, new Request(`${BASE}/on-reco/v1/gateway/readings`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ readings }) }));
      expect(response.status).toBe(200);
    }
    expect(await db.selectFrom('measurement_buckets').select(['temperature_sum', 'temperature_count']).where('equipment_id', '=', fridge).execute()).toEqual([{ temperature_sum: 15, temperature_count: 3 }]);
  });

  it('returns nothing for a store the viewer may not see', async () => {
    const { fridge } = await chain();
    await insertReadings('S001', fridge, [['2026/11/20 10:00', 4.0]]);
    const store2 = await db.selectFrom('users').select('user_id').where('login_id', '=', 'store2').executeTakeFirstOrThrow();
    const outsider: Viewer = { ...admin, userId: store2.user_id, authority: 101 };
    const [series] = await readGraphSeries(db, outsider, { storeId: 'S001', equipmentIds: [fridge], period: graphPeriod('day', '20261120') });
    expect(series.points).toEqual([]);
  });
});

describe('GET /v1/equipments/measurement/csv', () => {
  it('answers equipments_measurement.csv: UTF-8 with a BOM, one row per reading in Japan time, sensor by sensor', async () => {
    const { fridge, freezer } = await chain();
    await insertReadings('S001', fridge, [['2026/11/20 09:00', 4.0], ['2026/11/20 09:01:30', null], ['2026/11/20 10:00', 5.5], ['2026/11/20 10:01', 9.9]]);
    await insertReadings('S001', freezer, [['2026/11/20 09:30', -18.0]]);
    await db.insertInto('measurement_comments').values({ store_id: 'S001', equipment_id: fridge, measured_at: jst('2026/11/20 09:00'), comment: '扉開放, 補充' }).execute();
    const token = await tokenFor('store1', TEST_PASSWORD);
    const response = await call(csvLoader, get(`/on-reco/v1/equipments/measurement/csv?equipment_id=${freezer},${fridge}&since=20261120090000&until=20261120100000`, token));
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="equipments_measurement.csv"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.split('\r\n')).toEqual([
      'センサID,センサ名,計測日時,温度,電池残量,電波強度,コメント',
      `${freezer},冷凍ケース,2026/11/20 09:30:00,-18.0,80,-65,`,
      `${fridge},冷蔵ケース,2026/11/20 09:00:00,4.0,80,-65,"扉開放, 補充"`,
      `${fridge},冷蔵ケース,2026/11/20 09:01:30,ERROR,80,-65,`,
      `${fridge},冷蔵ケース,2026/11/20 10:00:00,5.5,80,-65,`, // until is inclusive; 10:01 is after it
      '',
    ]);
  });

  it('is 404 when a sensor is not the caller’s or does not exist, 401 without a token', async () => {
    const { fridge, other } = await chain();
    const token = await tokenFor('store1', TEST_PASSWORD);
    const range = 'since=20261120000000&until=20261121000000';
    for (const ids of [`${other}`, `${fridge},${other}`, '999999']) {
      const response = await call(csvLoader, get(`/on-reco/v1/equipments/measurement/csv?equipment_id=${ids}&${range}`, token));
      expect(response.status).toBe(404);
      expect((await response.json()).error).toBe('not_found');
    }
    expect((await call(csvLoader, get(`/on-reco/v1/equipments/measurement/csv?equipment_id=${fridge}&${range}`))).status).toBe(401);
  });

  it('answers 400 with the field for bad ids and dates', async () => {
    const { fridge } = await chain();
    const token = await tokenFor('admin', TEST_PASSWORD);
    const cases: [string, string][] = [
      ['equipment_id=abc&since=20261120000000&until=20261121000000', 'equipment_id'],
      ['equipment_id=1,,2&since=20261120000000&until=20261121000000', 'equipment_id'],
      ['since=20261120000000&until=20261121000000', 'equipment_id'],
      [`equipment_id=${fridge}&since=2026112&until=20261121000000`, 'since'],
      [`equipment_id=${fridge}&since=20261131000000&until=20261201000000`, 'since'],
      [`equipment_id=${fridge}&since=20261120000000`, 'until'],
      [`equipment_id=${fridge}&since=20261121000000&until=20261120000000`, 'until'],
      [`equipment_id=${fridge}&since=20261001000000&until=20261120000000`, 'since'],
    ];
    for (const [query, field] of cases) {
      const response = await call(csvLoader, get(`/on-reco/v1/equipments/measurement/csv?${query}`, token));
      expect(response.status, query).toBe(400);
      expect((await response.json()).fields, query).toHaveProperty(field);
    }
  });

  it('serves the page’s CSV link for the panel’s sensors and period, only for the store’s sensors', async () => {
    const { fridge, other } = await chain();
    await insertReadings('S001', fridge, [['2026/11/19 23:59', 1.0], ['2026/11/20 00:00', 2.0], ['2026/11/20 23:59:59', 3.0], ['2026/11/21 00:00', 4.0]]);
    const cookie = await sessionOf('store1');
    const response = await call(consoleCsvLoader, get(`/stores/S001/temp_graphs.csv?equipment_id=${fridge}&unit=day&start_date=20261120`, undefined, { Cookie: cookie }), { storeId: 'S001' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Disposition')).toContain('equipments_measurement.csv');
    const lines = (await response.text()).replace('\uFEFF', '').trim().split('\r\n');
    expect(lines.slice(1).map((line) => line.split(',')[2])).toEqual(['2026/11/20 00:00:00', '2026/11/20 23:59:59']);
    expect((await call(consoleCsvLoader, get(`/stores/S001/temp_graphs.csv?equipment_id=${other}&start_date=20261120`, undefined, { Cookie: cookie }), { storeId: 'S001' })).status).toBe(404);
    expect((await call(consoleCsvLoader, get(`/stores/S001/temp_graphs.csv?equipment_id=${fridge}&start_date=2026`, undefined, { Cookie: cookie }), { storeId: 'S001' })).status).toBe(400);
    const outsider = await call(consoleCsvLoader, get(`/stores/S001/temp_graphs.csv?equipment_id=${fridge}&start_date=20261120`, undefined, { Cookie: await sessionOf('store2') }), { storeId: 'S001' });
    expect(outsider.status).toBe(302);
    expect(outsider.headers.get('Location')).toBe('/not_found');
  });
});

describe('POST /v1/equipments/measurement/comment', () => {
  it('comments the reading nearest to start_date, shows it in the measurement read, and removes it when empty', async () => {
    const { fridge } = await chain();
    await insertReadings('S001', fridge, [['2026/11/20 09:59:10', 4.0], ['2026/11/20 10:01:10', 5.0]]);
    const token = await tokenFor('store1', TEST_PASSWORD);
    const response = await call(commentAction, postJson('/on-reco/v1/equipments/measurement/comment', { equipment_id: fridge, start_date: '20261120100000', comment: ' 扉の閉め忘れ ' }, token));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ equipment_id: fridge, start_date: '20261120095910', comment: '扉の閉め忘れ' });
    const read = await call(measurementLoader, get(`/on-reco/v1/equipments/measurement?equipment_id=${fridge}&since=20261120090000&until=20261120110000`, token));
    const data = (await read.json()).measurement_data as { start_date: string; comment: string | null; comment_required: number }[];
    expect(data.map((point) => [point.start_date, point.comment, point.comment_required])).toEqual([
      ['20261120095910', '扉の閉め忘れ', 1],
      ['20261120100110', null, 1],
    ]);
    // A second registration replaces the text; the graph shows it on the slot of the reading.
    await call(commentAction, postJson('/on-reco/v1/equipments/measurement/comment', { equipment_id: fridge, start_date: '20261120095910', comment: '対応済み' }, token));
    const [series] = await readGraphSeries(db, admin, { storeId: 'S001', equipmentIds: [fridge], period: graphPeriod('day', '20261120') });
    expect(series.comments).toEqual([{ slot: 60, startDate: '20261120095910', comment: '対応済み' }]);
    const removed = await call(commentAction, postJson('/on-reco/v1/equipments/measurement/comment', { equipment_id: fridge, start_date: '20261120095910', comment: '' }, token));
    expect((await removed.json()).comment).toBeNull();
    expect(await countRows(db, 'measurement_comments')).toBe(0);
  });

  it('refuses sensors without comment_required, readings that do not exist, and bad input (400 with the field)', async () => {
    const { fridge, freezer } = await chain();
    await insertReadings('S001', fridge, [['2026/11/20 10:00', 4.0]]);
    await insertReadings('S001', freezer, [['2026/11/20 10:00', -18.0]]);
    const token = await tokenFor('store1', TEST_PASSWORD);
    const post = (body: unknown) => call(commentAction, postJson('/on-reco/v1/equipments/measurement/comment', body, token));
    const cases: [unknown, string][] = [
      [{ equipment_id: freezer, start_date: '20261120100000', comment: 'x' }, 'equipment_id'],
      [{ equipment_id: fridge, start_date: '20261120100600', comment: 'x' }, 'start_date'],
      [{ equipment_id: fridge, start_date: '202611201000', comment: 'x' }, 'start_date'],
      [{ equipment_id: 'abc', start_date: '20261120100000', comment: 'x' }, 'equipment_id'],
      [{ equipment_id: fridge, start_date: '20261120100000', comment: 'x'.repeat(201) }, 'comment'],
      [{ equipment_id: fridge, start_date: '20261120100000' }, 'comment'],
    ];
    for (const [body, field] of cases) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()).fields, JSON.stringify(body)).toHaveProperty(field);
    }
    expect(await countRows(db, 'measurement_comments')).toBe(0);
    expect((await call(commentLoader, get('/on-reco/v1/equipments/measurement/comment', token))).status).toBe(405);
  });

  it('is 404 for a sensor of a store the caller may not see', async () => {
    const { fridge } = await chain();
    await insertReadings('S001', fridge, [['2026/11/20 10:00', 4.0]]);
    const response = await call(commentAction, postJson('/on-reco/v1/equipments/measurement/comment', { equipment_id: fridge, start_date: '20261120100000', comment: 'x' }, await tokenFor('store2', TEST_PASSWORD)));
    expect(response.status).toBe(404);
    expect(await countRows(db, 'measurement_comments')).toBe(0);
  });
});

describe('/stores/{store_id}/temp_graphs', () => {
  type Page = {
    sensors: { equipmentId: number; colour: string }[];
    panels: { selected: number[]; unit: string; startDate: string; label: string; series: { pointsJson: string }[]; limits: number[]; thresholdBands: unknown[]; yRange: { min: number; max: number }; defrost: unknown[]; alertStops: [number, number][]; nextDate: string | null }[];
  };
  const load = async (cookie: string, query: string) => call(pageLoader, get(`/stores/S001/temp_graphs?${query}`, undefined, { Cookie: cookie }), { storeId: 'S001' });

  it('lists the acknowledged alerts of the sensors drawn in the period: the alert, who acknowledged and the corrective action (not another day\'s, nor an unacknowledged one)', async () => {
    const { fridge, freezer } = await chain();
    const store1 = Number((await db.selectFrom('users').select('user_id').where('login_id', '=', 'store1').executeTakeFirstOrThrow()).user_id);
    const alert = (startedAt: Date, equipmentId: number, acknowledged: boolean) => ({
      store_id: 'S001', equipment_id: equipmentId, alert_id: 'OE00000001', alert_data1: null, temperature: 12.5, lower_limit: 0, upper_limit: 10, started_at: startedAt, recovered_at: null, stopped_at: null, stopped_by: null, stop_comment: null, last_notified_at: null,
      ...(acknowledged ? { acknowledged_at: new Date(startedAt.getTime() + 5 * 60_000), acknowledged_by: store1, corrective_action: '霜取りを実施', acknowledge_note: '商品は移動済み' } : {}),
    });
    await db.insertInto('alert_history').values([alert(fromJapan(2026, 11, 20, 12, 0), fridge, true), alert(fromJapan(2026, 11, 22, 9, 0), fridge, true), alert(fromJapan(2026, 11, 20, 13, 0), freezer, false)]).execute();
    await db.updateTable('alert_history').set({ recovered_at: fromJapan(2026, 11, 20, 14, 0) }).where('started_at', '=', fromJapan(2026, 11, 20, 12, 0)).execute();
    const cookie = await sessionOf('store1');
    const page = await (await load(cookie, `equipment_id=${fridge},${freezer}&start_date=20261120`)).json();
    expect(page.acknowledgedAlerts).toEqual([{ id: expect.any(Number), sensorName: '冷蔵ケース', alertText: expect.stringContaining('上限'), startedAt: '2026/11/20 12:00', acknowledgement: '確認 2026/11/20 12:05 store1 さん: 霜取りを実施（メモ: 商品は移動済み）' }]);
  });

  it('pre-checks the equipment_id of the link, draws its limits and shades its defrost and the store’s alert stops', async () => {
    const { fridge, freezer } = await chain();
    await insertReadings('S001', fridge, [['2026/11/20 10:00', 4.0], ['2026/11/20 12:00', 12.5]]);
    await sql`insert into alert_schedules (store_id, schedule_type, term_type, start_date, end_date, time_target_type) values ('S001', 1, 2, '2026-11-20', '2026-11-20', 1)`.execute(db);
    await sql`insert into alert_schedule_times (store_id, schedule_id, equipment_id, start_minute, end_minute) select 'S001', schedule_id, null, 1320, 1380 from alert_schedules`.execute(db);
    const cookie = await sessionOf('store1');
    const page = (await (await load(cookie, `equipment_id=${fridge}&start_date=20261120`)).json()) as Page;
    // Sensors by lower limit: the freezer (-25) first, its colour the palette's first.
    expect(page.sensors.map((s) => s.equipmentId)).toEqual([freezer, fridge]);
    const [panel] = page.panels;
    expect(panel).toMatchObject({ selected: [fridge], unit: 'day', startDate: '20261120', label: '2026/11/20', limits: [0, 10], yRange: { min: -10, max: 23 } });
    // The points as one JSON text a sensor (decision 198).
    expect(JSON.parse(panel.series[0].pointsJson)).toEqual([[60, 4], [72, 12.5]]);
    expect(panel.thresholdBands).toEqual([{ from: -30, to: 0 }, { from: 10, to: 60 }]);
    expect(panel.defrost).toEqual([{ equipmentId: fridge, ranges: [[120, 150]] }]);
    expect(panel.alertStops).toEqual([[1320, 1380]]);
  });

  it('shows every sensor by default without the threshold band, and a second panel from p2_', async () => {
    const { fridge, freezer } = await chain();
    const cookie = await sessionOf('store1');
    const page = (await (await load(cookie, `start_date=20261120&p2_unit=month&p2_start_date=20261105&p2_equipment_id=${fridge},${freezer},999`)).json()) as Page;
    expect(page.panels).toHaveLength(2);
    expect(page.panels[0]).toMatchObject({ selected: [freezer, fridge], thresholdBands: [], limits: [] });
    expect(page.panels[1]).toMatchObject({ unit: 'month', startDate: '20261101', label: '2026/11', selected: [freezer, fridge] });
    const today = toCompactDate(new Date());
    const current = (await (await load(cookie, `start_date=${today}`)).json()) as Page;
    expect(current.panels[0].nextDate).toBeNull();
  });

  it('sends a store the viewer may not see to /not_found', async () => {
    await chain();
    const response = await load(await sessionOf('store2'), '');
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/not_found');
  });

  it('saves a comment from the dialog only for the page’s store and a sensor that takes comments', async () => {
    const { fridge, freezer, other } = await chain();
    await insertReadings('S001', fridge, [['2026/11/20 10:00', 4.0]]);
    await insertReadings('S001', freezer, [['2026/11/20 10:00', -18.0]]);
    await insertReadings('S002', other, [['2026/11/20 10:00', 4.0]]);
    await createUser(db, 'both', 101, { storeIds: ['S001', 'S002'] });
    const cookie = await sessionOf('both');
    const post = (fields: Record<string, string>) => call(pageAction, postForm('/stores/S001/temp_graphs', fields, { Cookie: cookie }), { storeId: 'S001' });
    const saved = await post({ equipment_id: String(fridge), start_date: '20261120100000', comment: '霜取り延長' });
    expect(await saved.json()).toMatchObject({ ok: true, startDate: '20261120100000' });
    expect((await post({ equipment_id: String(freezer), start_date: '20261120100000', comment: 'x' })).status).toBe(400);
    expect((await post({ equipment_id: String(other), start_date: '20261120100000', comment: 'x' })).status).toBe(404); // another store's sensor
    const tooLong = await post({ equipment_id: String(fridge), start_date: '20261120100000', comment: 'あ'.repeat(201) });
    expect(await tooLong.json()).toEqual({ ok: false, message: 'コメントは200文字以内で入力してください' });
    expect(await countRows(db, 'measurement_comments')).toBe(1);
  });
});
