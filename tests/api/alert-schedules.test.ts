import { beforeEach, describe, expect, it } from 'vitest';
import { ALERT_STOP_MESSAGES } from '~/domain/alert-stop-editor';
import { fromJapan, toCompactDateTime } from '~/domain/japan-time';
import { ingestReadings } from '~/services/ingest.server';
import { action as listAction, loader as listLoader } from '~/routes/_app+/stores.$storeId+/warning_stop_time.$startDate.$endDate';
import { action as editAction, loader as editLoader } from '~/routes/_app+/stores.$storeId+/warning_stop_time.$startDate.$endDate_.$scheduleId.edit';
import { action as loginAction } from '~/routes/_auth+/login';
import { action as scheduleAction, loader as scheduleLoader } from '~/routes/on-reco+/v1.alert_schedule';
import { TEST_PASSWORD, countRows, createSensor, createStore, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, deleteByQuery, get, postForm, postJson, tokenFor } from '../support/requests';

// /v1/alert_schedule and the alert-stop list and editor against the real database: the calls with
// their refusals, the save rules, the audit rows, the forms' messages, and the scenario of 001's
// purpose: a window saved through the editor stops an alert that would otherwise open.

const db = testDb();
beforeEach(() => resetDb());

let fridge: number;
let freezer: number;
let otherSensor: number;

async function chain() {
  await createStore(db, 'S001', { store_name: '新宿店' });
  await createStore(db, 'S002', { store_name: '渋谷店' });
  await createStore(db, 'S003', { store_name: '空き店' });
  fridge = await createSensor(db, 'S001', 'AA:BB:CC:00:00:01', { equipment_name: '冷蔵ケース', upper_limit: 10, lower_limit: 0 });
  freezer = await createSensor(db, 'S001', 'AA:BB:CC:00:00:02', { equipment_name: '冷凍ケース', upper_limit: -15, lower_limit: -30, location_no: 2 });
  otherSensor = await createSensor(db, 'S002', 'AA:BB:CC:00:00:03', { equipment_name: '渋谷 冷蔵' });
  await createUser(db, 'admin', 1);
  const area = await createUser(db, 'area', 30, { storeIds: ['S001', 'S003'] });
  await db.updateTable('users').set({ alert_filter: 0 }).where('user_id', '=', area).execute();
  await createUser(db, 'store1', 101, { storeIds: ['S001'] });
  return { admin: await tokenFor('admin', TEST_PASSWORD), area: await tokenFor('area', TEST_PASSWORD), store1: await tokenFor('store1', TEST_PASSWORD) };
}

const PATH = '/on-reco/v1/alert_schedule';
const list = (token: string, query: string) => call(scheduleLoader, get(`${PATH}?${query}`, token));
const save = (token: string, body: unknown) => call(scheduleAction, postJson(PATH, body, token));
const remove = (token: string, body: unknown) => call(scheduleAction, postJson(PATH, body, token, 'DELETE'));

const storeWindow = (overrides: Record<string, unknown> = {}) => ({
  store_id: 'S001',
  schedule_id: null,
  schedule_type: 1,
  term_type: 2,
  start_date: '20261125',
  end_date: null,
  time_target_type: 1,
  times: [{ equipment_id: null, time_schedules: [{ start: '09:00', end: '10:00' }] }],
  ...overrides,
});

describe('GET /v1/alert_schedule', () => {
  it('lists the schedules in force on a day of the range, with the store and its sensors', async () => {
    const { area } = await chain();
    await save(area, storeWindow());
    await save(area, storeWindow({ schedule_type: 2, term_type: 1, start_date: '20261101', wed_flg: 1, time_target_type: 2, times: [{ equipment_id: freezer, time_schedules: [{ start: '02:00', end: '03:00' }] }] }));
    await save(area, storeWindow({ start_date: '20261126' }));
    const answer = await (await list(area, 'store_id=S001&start_date=20261125&end_date=20261125')).json();
    expect(answer.store_name).toBe('新宿店');
    expect(answer.sensors).toEqual([{ equipment_id: fridge, equipment_name: '冷蔵ケース' }, { equipment_id: freezer, equipment_name: '冷凍ケース' }]);
    expect(answer.schedules).toHaveLength(2); // 2026-11-25 is a Wednesday; the 26th's window is not listed
    expect(answer.schedules[0]).toMatchObject({ schedule_type: 2, term_type: 1, start_date: '20261101', end_date: null, wed_flg: 1, time_target_type: 2, times: [{ equipment_id: freezer, equipment_name: '冷凍ケース', time_schedules: [{ start: '02:00', end: '03:00' }] }] });
    expect(answer.schedules[1]).toMatchObject({ schedule_type: 1, term_type: 2, start_date: '20261125', end_date: '20261125', time_target_type: 1, times: [{ equipment_id: null, time_schedules: [{ start: '09:00', end: '10:00' }] }] });
    const thursday = await (await list(area, 'store_id=S001&start_date=20261126&end_date=20261126')).json();
    expect(thursday.schedules.map((schedule: { start_date: string }) => schedule.start_date)).toEqual(['20261126']);
  });

  it('refuses other stores (404), store users (403) and bad ranges (400 with the field)', async () => {
    const { area, store1 } = await chain();
    expect((await list(area, 'store_id=S002&start_date=20261125&end_date=20261125')).status).toBe(404);
    expect((await list(store1, 'store_id=S001&start_date=20261125&end_date=20261125')).status).toBe(403);
    const reversed = await list(area, 'store_id=S001&start_date=20261126&end_date=20261125');
    expect(reversed.status).toBe(400);
    expect((await reversed.json()).fields).toEqual({ end_date: ALERT_STOP_MESSAGES.period });
    expect((await (await list(area, 'store_id=S001&start_date=20260230&end_date=20260301')).json()).fields).toEqual({ start_date: ALERT_STOP_MESSAGES.period });
  });
});

describe('POST /v1/alert_schedule', () => {
  it('creates (201) and updates (200) by the save rules, with an audit row holding before and after', async () => {
    const { area } = await chain();
    const created = await save(area, storeWindow({ term_type: 1, start_date: '20261125', end_date: '20261201', fri_flg: 1 }));
    expect(created.status).toBe(201);
    const { schedule_id } = await created.json();
    const stored = await db.selectFrom('alert_schedules').selectAll().where('schedule_id', '=', schedule_id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ start_date: '2026-11-22', end_date: '2026-11-28', fri_flg: 1, sun_flg: 0 });
    const updated = await save(area, storeWindow({ schedule_id, term_type: 3, end_date: '', fri_flg: 1, times: [{ equipment_id: null, time_schedules: [{ start: '22:00', end: '00:00' }] }] }));
    expect(updated.status).toBe(200);
    expect(await db.selectFrom('alert_schedules').selectAll().where('schedule_id', '=', schedule_id).executeTakeFirstOrThrow()).toMatchObject({ term_type: 3, end_date: null, fri_flg: 0 });
    expect(await db.selectFrom('alert_schedule_times').select(['equipment_id', 'start_minute', 'end_minute']).execute()).toEqual([{ equipment_id: null, start_minute: 1320, end_minute: 1440 }]);
    const audits = await db.selectFrom('audit_log').select(['action', 'target_id', 'store_id', 'details']).where('target_type', '=', 'alert_schedule').orderBy('at').execute();
    expect(audits.map((row) => row.action)).toEqual(['alert_schedule.create', 'alert_schedule.update']);
    const details = audits[1].details as unknown as { before: { end_date: string }; after: { end_date: null; times: unknown[] } };
    expect(details.before.end_date).toBe('20261128');
    expect(details.after.end_date).toBeNull();
    expect(details.after.times).toEqual([{ equipment_id: null, equipment_name: '店舗全体', time_schedules: [{ start: '22:00', end: '24:00' }] }]);
  });

  it('refuses, changing nothing: another store, another store\'s sensor, a store without sensors, a schedule of another store, the messages of 001 §5', async () => {
    const { area, admin, store1 } = await chain();
    const own = await (await save(area, storeWindow())).json();
    const other = await (await save(admin, storeWindow({ store_id: 'S002' }))).json();
    const before = { schedules: await countRows(db, 'alert_schedules'), times: await countRows(db, 'alert_schedule_times'), audit: await countRows(db, 'audit_log') };
    expect((await save(area, storeWindow({ store_id: 'S002' }))).status).toBe(404);
    expect((await save(store1, storeWindow())).status).toBe(403);
    const foreign = await save(area, storeWindow({ time_target_type: 2, times: [{ equipment_id: fridge, time_schedules: [{ start: '01:00', end: '02:00' }] }, { equipment_id: otherSensor, time_schedules: [{ start: '01:00', end: '02:00' }] }] }));
    expect(foreign.status).toBe(400);
    expect((await foreign.json()).fields).toEqual({ 'times.1.equipment_id': ALERT_STOP_MESSAGES.notOfStore });
    const empty = await save(area, storeWindow({ store_id: 'S003' }));
    expect(empty.status).toBe(400);
    expect((await empty.json()).fields).toEqual({ store_id: ALERT_STOP_MESSAGES.noSensors });
    expect((await save(area, storeWindow({ schedule_id: other.schedule_id }))).status).toBe(404);
    const period = await save(area, storeWindow({ schedule_id: own.schedule_id, term_type: 3, start_date: '20261125', end_date: '20261124' }));
    expect((await period.json()).fields).toEqual({ end_date: ALERT_STOP_MESSAGES.period });
    const noTime = await save(area, storeWindow({ times: [{ equipment_id: null, time_schedules: [] }] }));
    expect((await noTime.json()).fields).toEqual({ times: ALERT_STOP_MESSAGES.noTime });
    expect({ schedules: await countRows(db, 'alert_schedules'), times: await countRows(db, 'alert_schedule_times'), audit: await countRows(db, 'audit_log') }).toEqual(before);
  });
});

describe('DELETE /v1/alert_schedule', () => {
  it('deletes a schedule of a store one sees, with an audit row; other stores and missing ones are 404', async () => {
    const { area, admin } = await chain();
    const own = await (await save(area, storeWindow())).json();
    const other = await (await save(admin, storeWindow({ store_id: 'S002' }))).json();
    expect((await remove(area, { store_id: 'S002', schedule_id: other.schedule_id })).status).toBe(404);
    expect((await remove(area, { store_id: 'S001', schedule_id: other.schedule_id })).status).toBe(404);
    const deleted = await remove(area, { store_id: 'S001', schedule_id: own.schedule_id });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ store_id: 'S001', schedule_id: own.schedule_id });
    expect((await remove(area, { store_id: 'S001', schedule_id: own.schedule_id })).status).toBe(404);
    expect(await db.selectFrom('alert_schedules').select('store_id').execute()).toEqual([{ store_id: 'S002' }]);
    expect(await countRows(db, 'alert_schedule_times')).toBe(1);
    const audit = await db.selectFrom('audit_log').select(['action', 'details']).where('action', '=', 'alert_schedule.delete').executeTakeFirstOrThrow();
    expect((audit.details as unknown as { after: unknown }).after).toBeNull();
  });

  it('takes store_id and schedule_id in the query too, with the same scoping', async () => {
    const { area, admin } = await chain();
    const own = await (await save(area, storeWindow())).json();
    const other = await (await save(admin, storeWindow({ store_id: 'S002' }))).json();
    const byQuery = (token: string, query: string) => call(scheduleAction, deleteByQuery(`${PATH}?${query}`, token));
    expect((await byQuery(area, `store_id=S002&schedule_id=${other.schedule_id}`)).status).toBe(404);
    const deleted = await byQuery(area, `store_id=S001&schedule_id=${own.schedule_id}`);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ store_id: 'S001', schedule_id: own.schedule_id });
    expect((await byQuery(area, 'store_id=S001')).status).toBe(400);
    expect(await db.selectFrom('alert_schedules').select('store_id').execute()).toEqual([{ store_id: 'S002' }]);
  });
});

// ---- the console forms ----

async function sessionOf(loginId: string) {
  const login = await call(loginAction, postForm('/login', { username: loginId, password: TEST_PASSWORD }));
  return login.headers.get('Set-Cookie')!.split(';')[0];
}

const editPath = (scheduleId: string, day = '20261125') => `/stores/S001/warning_stop_time/${day}/${day}/${scheduleId}/edit`;
const editParams = (scheduleId: string, day = '20261125') => ({ storeId: 'S001', startDate: day, endDate: day, scheduleId });
const postEditor = (cookie: string, fields: [string, string][], scheduleId = 'null') =>
  call(editAction, new Request(`http://localhost${editPath(scheduleId)}`, { method: 'POST', headers: { Cookie: cookie }, body: new URLSearchParams(fields) }), editParams(scheduleId));

describe('the editor and the list (console)', () => {
  it('prefills the dates on create, saves through the form and returns to the list', async () => {
    await chain();
    const cookie = await sessionOf('area');
    const page = await (await call(editLoader, get(editPath('null'), undefined, { Cookie: cookie }), editParams('null'))).json();
    expect(page.initial).toMatchObject({ startDate: '20261125', endDate: '20261125', scheduleType: 1, termType: 2, target: 1 });
    expect(page.sensors).toHaveLength(2);
    const saved = await postEditor(cookie, [['schedule_type', '1'], ['term_type', '2'], ['start_date', '2026-11-25'], ['time_target_type', '1'], ['cells.store', '18'], ['cells.store', '19'], ['cells.store', '21']]);
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe('/stores/S001/warning_stop_time/20261125/20261125');
    const shown = await (await call(listLoader, get('/stores/S001/warning_stop_time/20261125/20261125', undefined, { Cookie: cookie }), { storeId: 'S001', startDate: '20261125', endDate: '20261125' })).json();
    expect(shown.rows).toEqual([{ no: 1, scheduleId: expect.any(Number), type: '単発', dateText: '2026/11/25', timeLines: [{ label: null, ranges: '09:00〜10:00, 10:30〜11:00' }], weekdays: '' }]);
  });

  it('shows 期間の指定が違います and 警報停止時間を設定してください at their fields and saves nothing', async () => {
    await chain();
    const cookie = await sessionOf('area');
    const period = await postEditor(cookie, [['schedule_type', '1'], ['term_type', '3'], ['start_date', '2026-11-25'], ['end_date', '2026-11-20'], ['time_target_type', '1'], ['cells.store', '3']]);
    expect(period.status).toBe(400);
    expect((await period.json()).fields).toEqual({ end_date: ALERT_STOP_MESSAGES.period });
    const noTime = await postEditor(cookie, [['schedule_type', '1'], ['term_type', '2'], ['start_date', '2026-11-25'], ['time_target_type', '2'], ['cells.store', '3']]);
    const answer = await noTime.json();
    expect(answer.fields).toEqual({ times: ALERT_STOP_MESSAGES.noTime });
    expect(answer.state.storeCells[3]).toBe(true); // what was sent comes back to the form
    expect(await countRows(db, 'alert_schedules')).toBe(0);
  });

  it('lists Page Not Found for dates that are not a range, and a failed delete says 削除に失敗しました', async () => {
    await chain();
    const cookie = await sessionOf('area');
    const open = (start: string, end: string) => call(listLoader, get(`/stores/S001/warning_stop_time/${start}/${end}`, undefined, { Cookie: cookie }), { storeId: 'S001', startDate: start, endDate: end });
    for (const [start, end] of [['20261126', '20261125'], ['20261131', '20261201'], ['today', 'today']]) {
      const response = await open(start, end);
      expect(response.headers.get('Location')).toBe('/not_found');
    }
    const failed = await call(listAction, new Request('http://localhost/stores/S001/warning_stop_time/20261125/20261125', { method: 'POST', headers: { Cookie: cookie }, body: new URLSearchParams({ intent: 'delete', schedule_id: '999' }) }), { storeId: 'S001', startDate: '20261125', endDate: '20261125' });
    expect(failed.status).toBe(400);
    expect((await failed.json()).deleteFailed).toBe(true);
  });
});

// ---- the scenario: a window saved through the editor stops an alert that would otherwise open ----

describe('a saved alert-stop window', () => {
  it('stops the alert and the mail of the covered sensor inside the window, and not outside it or for other sensors', async () => {
    await chain();
    const cookie = await sessionOf('area');
    const at = (hour: number, minute: number) => fromJapan(2026, 11, 25, hour, minute);
    const reading = (serial: string, when: Date, temperature: number) => ({ serial_no: serial, measured_at: toCompactDateTime(when), temperature, error: false, battery: 80, receive_sensitivity: -60 });
    // A reading before the save: normal, and the engine's state exists (the save must not need a restart).
    await ingestReadings(db, 'S001', [reading('AA:BB:CC:00:00:01', at(9, 0), 4), reading('AA:BB:CC:00:00:02', at(9, 0), -20)], at(9, 1));
    // 10:00–11:00 for the fridge only, saved through the editor's form.
    const saved = await postEditor(cookie, [['schedule_type', '1'], ['term_type', '2'], ['start_date', '2026-11-25'], ['time_target_type', '2'], [`cells.${fridge}`, '20'], [`cells.${fridge}`, '21']]);
    expect(saved.status).toBe(302);
    // Inside the window: the fridge is far above its limit, no alert and no mail; the freezer (not covered) alerts.
    await ingestReadings(db, 'S001', [reading('AA:BB:CC:00:00:01', at(10, 10), 25), reading('AA:BB:CC:00:00:02', at(10, 10), -5)], at(10, 11));
    const inside = await db.selectFrom('alert_history').select(['equipment_id', 'alert_id']).execute();
    expect(inside).toEqual([{ equipment_id: freezer, alert_id: 'OE00000001' }]);
    const mailsInside = await countRows(db, 'mail_outbox');
    expect(mailsInside).toBeGreaterThan(0);
    const measured = await db.selectFrom('measurements').select('temperature').where('equipment_id', '=', fridge).execute();
    expect(measured.map((row) => Number(row.temperature))).toContain(25); // still stored
    // The same reading after the window: the fridge's alert opens, with its mail.
    await ingestReadings(db, 'S001', [reading('AA:BB:CC:00:00:01', at(11, 10), 25)], at(11, 11));
    const after = await db.selectFrom('alert_history').select(['equipment_id', 'alert_id']).where('equipment_id', '=', fridge).execute();
    expect(after).toEqual([{ equipment_id: fridge, alert_id: 'OE00000001' }]);
    expect(await countRows(db, 'mail_outbox')).toBeGreaterThan(mailsInside);
  });

  it('counts from the next reading after a save through the API (no cache), and stops nothing once deleted', async () => {
    const { area } = await chain();
    const at = (hour: number, minute: number) => fromJapan(2026, 11, 25, hour, minute);
    const reading = (when: Date, temperature: number) => ({ serial_no: 'AA:BB:CC:00:00:01', measured_at: toCompactDateTime(when), temperature, error: false, battery: 80, receive_sensitivity: -60 });
    await ingestReadings(db, 'S001', [reading(at(13, 0), 4)], at(13, 1));
    const { schedule_id } = await (await save(area, storeWindow({ times: [{ equipment_id: null, time_schedules: [{ start: '13:00', end: '15:00' }] }] }))).json();
    await ingestReadings(db, 'S001', [reading(at(13, 10), 30)], at(13, 11));
    expect(await countRows(db, 'alert_history')).toBe(0);
    expect(await countRows(db, 'mail_outbox')).toBe(0);
    expect((await remove(area, { store_id: 'S001', schedule_id })).status).toBe(200);
    await ingestReadings(db, 'S001', [reading(at(13, 20), 30)], at(13, 21));
    expect(await countRows(db, 'alert_history')).toBe(1);
    expect(await countRows(db, 'mail_outbox')).toBeGreaterThan(0);
  });
});
