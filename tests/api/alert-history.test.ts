import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { SensorAlertStateSchema } from '~/domain/alert-engine';
import { fromJapan, toCompactDateTime } from '~/domain/japan-time';
import { action as pageAction, loader as pageLoader } from '~/routes/_app+/stores.$storeId+/warning_histories';
import { action as loginAction } from '~/routes/_auth+/login';
import { action as historyAction, loader as historyLoader } from '~/routes/on-reco+/v1.alert_history';
import { loader as csvLoader } from '~/routes/on-reco+/v1.alert_history.csv';
import { action as pairAction } from '~/routes/on-reco+/v1.gateway.pair';
import { action as readingsAction } from '~/routes/on-reco+/v1.gateway.readings';
import { loader as consoleCsvLoader } from '~/routes/_app+/stores.$storeId+/warning_histories[.]csv';
import { TEST_PASSWORD, createSensor, createStore, createUser, issuePin } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { waitUntil } from '../support/processes';
import { BASE, call, get, postForm, postJson, tokenFor } from '../support/requests';

const db = testDb();
// The stops' audit rows (the gateway's pairing in the set-up has one of its own).
const stopAudits = () => db.selectFrom('audit_log').where('action', '=', 'alert_history.stop');
const stopAuditCount = async () => (await stopAudits().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
beforeEach(() => resetDb());

type Item = Record<string, unknown> & { alert_history_id: number; start_date: string; stoppable: number };

/** An alert history row as the engine writes it (times are Japan wall-clock). */
async function history(storeId: string, equipmentId: number | null, alertId: string, startedAt: Date, extra: Partial<{ recovered_at: Date; stopped_at: Date; alert_data1: string }> = {}) {
  const row = await db
    .insertInto('alert_history')
    .values({ store_id: storeId, equipment_id: equipmentId, alert_id: alertId, alert_data1: extra.alert_data1 ?? '12.5', temperature: 12.5, lower_limit: 0, upper_limit: 10, started_at: startedAt, ...extra })
    .returning('alert_history_id')
    .executeTakeFirstOrThrow();
  return row.alert_history_id;
}

async function list(query: string, token: string) {
  const response = await call(historyLoader, get(`/on-reco/v1/alert_history?${query}`, token));
  return { status: response.status, body: (await response.json()) as { all_count: number; alerts: Item[]; fields?: Record<string, string> } };
}

const stop = (body: unknown, token: string) => call(historyAction, postJson('/on-reco/v1/alert_history', body, token));

async function chain() {
  await createStore(db, 'S001');
  await createStore(db, 'S002');
  const a = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01', { equipment_name: 'チルドA' });
  const b = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:02', { equipment_name: '冷凍B', icon_kind: 10 });
  const c = await createSensor(db, 'S002', 'AA:BB:CC:DD:EE:03', { equipment_name: '他店' });
  await createUser(db, 'admin', 1);
  await createUser(db, 'store1', 101, { storeIds: ['S001'] });
  await createUser(db, 'store2', 101, { storeIds: ['S002'] });
  return { a, b, c, admin: await tokenFor('admin', TEST_PASSWORD), store1: await tokenFor('store1', TEST_PASSWORD), store2: await tokenFor('store2', TEST_PASSWORD) };
}

describe('GET /v1/alert_history', () => {
  it('pages by 10, newest first, with all_count and the fields of the specification', async () => {
    const { a, b, store1 } = await chain();
    for (let i = 0; i < 23; i += 1) await history('S001', i % 2 ? a : b, 'OE00000003', fromJapan(2026, 11, 1, 0, i), { recovered_at: fromJapan(2026, 11, 1, 1, i) });
    const page1 = await list(`equipment_id=${a},${b}&start_date=20261101&end_date=20261101&page_count=10&page_no=1`, store1);
    expect(page1.status).toBe(200);
    expect(page1.body.all_count).toBe(23);
    expect(page1.body.alerts).toHaveLength(10);
    expect(page1.body.alerts[0]).toMatchObject({ alert_id: 'OE00000003', equipment_id: b, alert_data1: '12.5', lower_limit: 0, upper_limit: 10, start_date: '20261101002200000' });
    expect(page1.body.alerts.map((item) => item.start_date)).toEqual([...page1.body.alerts.map((item) => item.start_date)].sort().reverse());
    expect(Object.keys(page1.body.alerts[0]).slice(0, 6)).toEqual(['alert_id', 'equipment_id', 'alert_data1', 'lower_limit', 'upper_limit', 'start_date']);
    const page3 = await list(`equipment_id=${a},${b}&start_date=20261101&end_date=20261101&page_count=10&page_no=3`, store1);
    expect(page3.body.alerts).toHaveLength(3);
    expect(page3.body.alerts[2].start_date).toBe('20261101000000000');
    // page_count defaults to 10.
    expect((await list(`store_id=S001&start_date=20261101&end_date=20261101`, store1)).body.alerts).toHaveLength(10);
  });

  it('reads start_date and end_date as whole Japan days', async () => {
    const { a, store1 } = await chain();
    await history('S001', a, 'OE00000001', fromJapan(2026, 10, 31, 23, 59)); // 14:59Z on the 31st
    const first = await history('S001', a, 'OE00000002', fromJapan(2026, 11, 1, 0, 0), { recovered_at: fromJapan(2026, 11, 1, 0, 30) }); // 15:00Z on 31 Oct
    const last = await history('S001', a, 'OE00000003', fromJapan(2026, 11, 2, 23, 59, 59, 999), { recovered_at: fromJapan(2026, 11, 3) });
    await history('S001', a, 'OE00000004', fromJapan(2026, 11, 3, 0, 0), { recovered_at: fromJapan(2026, 11, 3, 1) });
    const { body } = await list(`equipment_id=${a}&start_date=20261101&end_date=20261102`, store1);
    expect(body.alerts.map((item) => item.alert_history_id)).toEqual([last, first]);
  });

  it('defaults to the last month up to today', async () => {
    const { a, store1 } = await chain();
    const now = new Date();
    const recent = await history('S001', a, 'OE00000001', new Date(now.getTime() - 20 * 86400_000), { recovered_at: now });
    await history('S001', a, 'OE00000002', new Date(now.getTime() - 40 * 86400_000), { recovered_at: now });
    const { body } = await list(`equipment_id=${a}`, store1);
    expect(body.alerts.map((item) => item.alert_history_id)).toEqual([recent]);
  });

  it('lists a whole store by store_id with its gateway alerts, and equipment filters leave them out', async () => {
    const { a, b, store1 } = await chain();
    const gateway = await history('S001', null, 'OE00000005', fromJapan(2026, 11, 5, 9), { alert_data1: undefined });
    await history('S001', a, 'OE00000001', fromJapan(2026, 11, 5, 8));
    await history('S001', b, 'OE00000002', fromJapan(2026, 11, 5, 7));
    await history('S002', null, 'OE00000005', fromJapan(2026, 11, 5, 6));
    const store = await list('store_id=S001&start_date=20261101&end_date=20261110', store1);
    expect(store.body.all_count).toBe(3);
    expect(store.body.alerts[0]).toMatchObject({ alert_history_id: gateway, equipment_id: null, equipment_name: null, stoppable: 0 });
    expect((await list(`store_id=S001&equipment_id=${b}&start_date=20261101&end_date=20261110`, store1)).body.all_count).toBe(1);
  });

  it('marks only the latest active, unstopped record of a pair as stoppable, and tells who stopped', async () => {
    const { a, b, store1 } = await chain();
    const old = await history('S001', a, 'OE00000001', fromJapan(2026, 11, 5, 8), { recovered_at: fromJapan(2026, 11, 5, 9) });
    const latest = await history('S001', a, 'OE00000001', fromJapan(2026, 11, 5, 10));
    const other = await history('S001', a, 'OE00000003', fromJapan(2026, 11, 5, 7));
    const admin = await db.selectFrom('users').select('user_id').where('login_id', '=', 'admin').executeTakeFirstOrThrow();
    const stopped = await history('S001', b, 'OE00000002', fromJapan(2026, 11, 5, 6));
    await db.updateTable('alert_history').set({ stopped_at: fromJapan(2026, 11, 5, 6, 30), stopped_by: admin.user_id, stop_comment: '霜取り中' }).where('alert_history_id', '=', stopped).execute();
    const { body } = await list('store_id=S001&start_date=20261101&end_date=20261110', store1);
    const byId = new Map(body.alerts.map((item) => [item.alert_history_id, item]));
    expect(byId.get(latest)).toMatchObject({ stoppable: 1, stopped: 0, recovered_date: null, equipment_name: 'チルドA' });
    expect(byId.get(old)).toMatchObject({ stoppable: 0, recovered_date: '20261105090000000' });
    expect(byId.get(other)?.stoppable).toBe(1);
    expect(byId.get(stopped)).toMatchObject({ stoppable: 0, stopped: 1, stopped_date: '20261105063000000', stopped_by_name: 'admin さん', stop_comment: '霜取り中' });
  });

  it('answers 404 for a store or sensor the user may not see, and 401 without a token', async () => {
    const { a, c, store1, store2 } = await chain();
    await history('S001', a, 'OE00000001', fromJapan(2026, 11, 5, 8));
    expect((await list('store_id=S001', store2)).status).toBe(404);
    expect((await list(`equipment_id=${a}`, store2)).status).toBe(404);
    expect((await list(`equipment_id=${c},${a}`, store2)).status).toBe(404);
    expect((await list('equipment_id=999999', store1)).status).toBe(404);
    expect((await list('store_id=NOPE', store1)).status).toBe(404);
    expect((await list(`store_id=S001&equipment_id=${c}`, store1)).status).toBe(404);
    expect((await call(csvLoader, get('/on-reco/v1/alert_history/csv?store_id=S001', store2))).status).toBe(404);
    expect((await call(historyLoader, get('/on-reco/v1/alert_history?store_id=S001'))).status).toBe(401);
  });

  it('answers 400 with the field for bad parameters', async () => {
    const { store1 } = await chain();
    for (const [query, field] of [
      ['start_date=20261101', 'equipment_id'],
      ['equipment_id=abc', 'equipment_id'],
      ['equipment_id=1,,2', 'equipment_id'],
      ['store_id=S001&start_date=20261399', 'start_date'],
      ['store_id=S001&start_date=2026-11-1', 'start_date'],
      ['store_id=S001&start_date=20261110&end_date=20261101', 'end_date'],
      ['store_id=S001&start_date=20240101&end_date=20261101', 'end_date'],
      ['store_id=S001&page_no=0', 'page_no'],
      ['store_id=S001&page_count=1000', 'page_count'],
      ['store_id=S001&page_no=x', 'page_no'],
    ]) {
      const { status, body } = await list(query, store1);
      expect(status, query).toBe(400);
      expect(body.fields, query).toHaveProperty(field);
    }
  });
});

describe('GET /v1/alert_history/csv', () => {
  it('downloads alert_history.csv in UTF-8 with a BOM, with the same filters and the stop comment', async () => {
    const { a, b, store1 } = await chain();
    await history('S001', a, 'OE00000001', fromJapan(2026, 11, 5, 8, 15), { recovered_at: fromJapan(2026, 11, 5, 9) });
    const stopped = await history('S001', b, 'OE00000004', fromJapan(2026, 11, 6, 10), { alert_data1: 'ERROR' });
    await db.updateTable('alert_history').set({ stopped_at: fromJapan(2026, 11, 6, 10, 5), stop_comment: 'センサ交換手配済み, "至急"' }).where('alert_history_id', '=', stopped).execute();
    await history('S001', a, 'OE00000003', fromJapan(2026, 10, 1, 8));
    const response = await call(csvLoader, get(`/on-reco/v1/alert_history/csv?equipment_id=${a},${b}&start_date=20261101&end_date=20261110&page_no=1&page_count=10`, store1));
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="alert_history.csv"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).trim().split('\r\n');
    expect(lines).toEqual([
      '発生日時,センサ名,警報内容,温度,推定品温,下限温度,上限温度,状態,復旧日時,停止日時,停止者,対応コメント,確認日時,確認者,改善措置,確認メモ',
      '2026/11/06 10:00,冷凍B,センサ異常（温度が取得できません）,ERROR,,0.0,10.0,停止中,,2026/11/06 10:05,,"センサ交換手配済み, ""至急""",,,,',
      '2026/11/05 08:15,チルドA,上限温度超過,12.5,,0.0,10.0,復旧,2026/11/05 09:00,,,,,,,',
    ]);
  });
});

// ---- stopping, through the real ingest and alert engine ------------------------------------

async function pairedStore(storeId: string): Promise<string> {
  const pin = await issuePin(db, storeId);
  const response = await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: `GW-${storeId}`, pin_code: pin }));
  return ((await response.json()) as { gateway_token: string }).gateway_token;
}

const minuteNow = Math.floor(Date.now() / 60_000) * 60_000;
const reading = (serial_no: string, minutesAgo: number, temperature: number) => ({
  serial_no, measured_at: toCompactDateTime(new Date(minuteNow - minutesAgo * 60_000)), temperature, error: false, battery: 80, receive_sensitivity: -70,
});

async function ingest(token: string, readings: unknown[]) {
  const response = await call(readingsAction, new Request(`${BASE}/on-reco/v1/gateway/readings`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ readings }),
  }));
  expect(response.status).toBe(200);
}

async function openAlerts() {
  await createStore(db, 'S001');
  await createStore(db, 'S002');
  const settings = { upper_limit: 10, lower_limit: 0, snoozing_time: 10, time_constant: 1 };
  const stopped = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01', { equipment_name: 'チルドA', ...settings });
  const control = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:02', { equipment_name: 'チルドB', ...settings });
  await createUser(db, 'store1', 101, { storeIds: ['S001'], mail: 'store1@example.com' });
  await createUser(db, 'store2', 101, { storeIds: ['S002'] });
  const gateway = await pairedStore('S001');
  // Both sensors go above 10 °C 30 minutes ago: an upper-limit alert opens on each, with a mail.
  await ingest(gateway, [reading('AA:BB:CC:DD:EE:01', 30, 14.2), reading('AA:BB:CC:DD:EE:02', 30, 13.1)]);
  return { stopped, control, gateway, store1: await tokenFor('store1', TEST_PASSWORD), store2: await tokenFor('store2', TEST_PASSWORD) };
}

const mailsOf = async (equipmentId: number) =>
  (
    await db
      .selectFrom('mail_outbox as m')
      .innerJoin('alert_history as h', 'h.alert_history_id', 'm.alert_history_id')
      .select('m.mail_id')
      .where('h.equipment_id', '=', equipmentId)
      .execute()
  ).length;

describe('POST /v1/alert_history', () => {
  it('stops the active alert: who, when and why on the row, the engine never re-notifies it, an audit row', async () => {
    const { stopped, control, gateway, store1 } = await openAlerts();
    expect(await mailsOf(stopped)).toBe(1);
    const response = await stop({ equipment_id: stopped, alert_id: 'OE00000001', comment: '扉の閉め忘れ。閉めました' }, store1);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ equipment_id: stopped, alert_id: 'OE00000001', store_id: 'S001', stopped_by_name: 'store1 さん', stop_comment: '扉の閉め忘れ。閉めました', already_stopped: 0 });

    const row = await db.selectFrom('alert_history').selectAll().where('alert_history_id', '=', body.alert_history_id).executeTakeFirstOrThrow();
    expect(row.stopped_at).not.toBeNull();
    expect(row.recovered_at).toBeNull(); // still active
    const state = await db.selectFrom('sensor_states').select(['engine_state', 'status', 'alert_codes']).where('equipment_id', '=', stopped).executeTakeFirstOrThrow();
    expect(SensorAlertStateSchema.parse(state.engine_state).openAlerts.OE00000001?.stopped).toBe(true);
    expect(state).toMatchObject({ status: 2, alert_codes: ['OE00000001'] });
    const audit = await stopAudits().selectAll().execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'alert_history.stop', target_type: 'alert_history', target_id: String(body.alert_history_id), store_id: 'S001' });
    expect(audit[0].details).toMatchObject({ equipment_id: stopped, alert_id: 'OE00000001', comment: '扉の閉め忘れ。閉めました' });

    // 20 more minutes above the limit (two snoozing times): the control sensor is re-notified, the stopped one is not.
    await ingest(gateway, [15, 5].flatMap((minutes) => [reading('AA:BB:CC:DD:EE:01', minutes, 14.5), reading('AA:BB:CC:DD:EE:02', minutes, 13.4)]));
    expect(await mailsOf(control)).toBe(3);
    expect(await mailsOf(stopped)).toBe(1);
    const after = await db.selectFrom('alert_history').select(['last_notified_at', 'stopped_at']).where('alert_history_id', '=', body.alert_history_id).executeTakeFirstOrThrow();
    expect(after.last_notified_at).toEqual(row.last_notified_at);
    expect(after.stopped_at).toEqual(row.stopped_at); // the ingest kept the stop
    const list1 = await list(`equipment_id=${stopped}`, store1);
    expect(list1.body.alerts[0]).toMatchObject({ stopped: 1, stoppable: 0, stop_comment: '扉の閉め忘れ。閉めました' });

    // Recovery ends it as usual.
    await ingest(gateway, [reading('AA:BB:CC:DD:EE:01', 0, 5)]);
    expect((await list(`equipment_id=${stopped}`, store1)).body.alerts[0].recovered_date).not.toBeNull();
  });

  it('waits for an evaluation holding the store lock, so neither overwrites the other', async () => {
    const { stopped, store1 } = await openAlerts();
    let settled = false;
    let stopping: Promise<Response> | undefined;
    await db.transaction().execute(async (trx) => {
      // What ingest does: lock the store, read the state, write it back later in the same transaction.
      await trx.selectFrom('stores').select('store_id').where('store_id', '=', 'S001').forUpdate().execute();
      const { engine_state } = await trx.selectFrom('sensor_states').select('engine_state').where('equipment_id', '=', stopped).executeTakeFirstOrThrow();
      stopping = stop({ equipment_id: stopped, alert_id: 'OE00000001' }, store1).then((response) => {
        settled = true;
        return response;
      });
      await waitUntil(
        async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db)).rows[0].n > 0,
        10_000,
        'the stop to wait on the store\'s lock',
      );
      expect(settled).toBe(false);
      const state = SensorAlertStateSchema.parse(engine_state);
      await trx.updateTable('sensor_states').set({ engine_state: JSON.stringify({ ...state, dampedTemperature: 14.9 }) }).where('equipment_id', '=', stopped).execute();
    });
    expect((await stopping!).status).toBe(200);
    const { engine_state } = await db.selectFrom('sensor_states').select('engine_state').where('equipment_id', '=', stopped).executeTakeFirstOrThrow();
    const state = SensorAlertStateSchema.parse(engine_state);
    expect(state.dampedTemperature).toBe(14.9); // the evaluation's write is kept …
    expect(state.openAlerts.OE00000001?.stopped).toBe(true); // … and so is the stop
  });

  it('is idempotent: a second stop changes nothing, keeps the first stopper, and writes no audit row', async () => {
    const { stopped, store1 } = await openAlerts();
    await createUser(db, 'admin', 1);
    const admin = await tokenFor('admin', TEST_PASSWORD);
    const first = await (await stop({ equipment_id: stopped, alert_id: 'OE00000001', comment: '一回目' }, store1)).json();
    const again = await stop({ equipment_id: stopped, alert_id: 'OE00000001', comment: '二回目' }, admin);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ alert_history_id: first.alert_history_id, already_stopped: 1, stopped_by_name: 'store1 さん', stop_comment: '一回目', stopped_date: first.stopped_date });
    expect(await stopAuditCount()).toBe(1);
  });

  it('answers 404 when the pair has no active alert or the sensor is not the user\'s', async () => {
    const { stopped, gateway, store1, store2 } = await openAlerts();
    expect((await stop({ equipment_id: stopped, alert_id: 'OE00000002' }, store1)).status).toBe(404);
    expect((await stop({ equipment_id: 999999, alert_id: 'OE00000001' }, store1)).status).toBe(404);
    // Another store's user: the same 404, and nothing changes.
    expect((await stop({ equipment_id: stopped, alert_id: 'OE00000001' }, store2)).status).toBe(404);
    expect(await db.selectFrom('alert_history').select('stopped_at').where('stopped_at', 'is not', null).execute()).toHaveLength(0);
    // A recovered alert cannot be stopped.
    await ingest(gateway, [reading('AA:BB:CC:DD:EE:01', 0, 5)]);
    expect((await stop({ equipment_id: stopped, alert_id: 'OE00000001' }, store1)).status).toBe(404);
    expect(await stopAuditCount()).toBe(0);
  });

  it('answers 400 with the field for a bad body', async () => {
    const { stopped, store1 } = await openAlerts();
    for (const [body, field] of [
      [{ alert_id: 'OE00000001' }, 'equipment_id'],
      [{ equipment_id: 'abc', alert_id: 'OE00000001' }, 'equipment_id'],
      [{ equipment_id: stopped, alert_id: 'OE12345678' }, 'alert_id'],
      [{ equipment_id: stopped }, 'alert_id'],
      [{ equipment_id: stopped, alert_id: 'OE00000001', comment: 'あ'.repeat(201) }, 'comment'],
    ] as const) {
      const response = await stop(body, store1);
      expect(response.status).toBe(400);
      expect((await response.json()).fields).toHaveProperty(field);
    }
    const notJson = await call(historyAction, new Request(`${BASE}/on-reco/v1/alert_history`, { method: 'POST', headers: { Authorization: `Bearer ${store1}`, 'Content-Type': 'application/json' }, body: '{' }));
    expect(notJson.status).toBe(400);
    expect(await stopAuditCount()).toBe(0);
  });
});

// ---- the console page ----------------------------------------------------------------------

async function sessionOf(loginId: string): Promise<string> {
  const login = await call(loginAction, postForm('/login', { username: loginId, password: TEST_PASSWORD }));
  return login.headers.get('Set-Cookie')!.split(';')[0];
}

describe('/stores/{store_id}/warning_histories', () => {
  it('lists the store by category and dates, and sends other users to /not_found', async () => {
    const { a, b } = await chain();
    await history('S001', a, 'OE00000001', fromJapan(2026, 11, 5, 8));
    await history('S001', b, 'OE00000002', fromJapan(2026, 11, 5, 7));
    await history('S001', null, 'OE00000005', fromJapan(2026, 11, 5, 6));
    const cookie = await sessionOf('store1');
    const page = async (query: string) => (await (await call(pageLoader, get(`/stores/S001/warning_histories?${query}`, undefined, { Cookie: cookie }), { storeId: 'S001' })).json()) as {
      list: { allCount: number; rows: { sensorName: string; graphHref: string | null }[] } | null;
      errors: Record<string, string>;
      categories: { kind: number; sensors: unknown[] }[];
    };
    const all = await page('start_date=2026-11-01&end_date=2026-11-10');
    expect(all.list?.allCount).toBe(3);
    expect(all.list?.rows.map((row) => row.sensorName)).toEqual(['チルドA', '冷凍B', 'ゲートウェイ']);
    expect(all.list?.rows[0].graphHref).toBe(`/stores/S001/temp_graphs?equipment_id=${a}&start_date=20261105`);
    expect(all.categories.map((category) => category.kind)).toEqual([3, 10]);
    expect((await page('kind=10&start_date=2026-11-01&end_date=2026-11-10')).list?.rows.map((row) => row.sensorName)).toEqual(['冷凍B']);
    expect((await page(`equipment_id=${a}&start_date=2026-11-01&end_date=2026-11-10`)).list?.allCount).toBe(1);
    const bad = await page('start_date=2026-11-10&end_date=2026-11-01');
    expect(bad.list).toBeNull();
    expect(bad.errors.end_date).toBe('開始日は終了日以前の日付を指定してください');

    const other = await call(pageLoader, get('/stores/S001/warning_histories', undefined, { Cookie: await sessionOf('store2') }), { storeId: 'S001' });
    expect(other.status).toBe(302);
    expect(other.headers.get('Location')).toBe('/not_found');
    const csv = await call(consoleCsvLoader, get('/stores/S001/warning_histories.csv?start_date=20261101&end_date=20261110', undefined, { Cookie: cookie }), { storeId: 'S001' });
    expect(csv.headers.get('Content-Disposition')).toBe('attachment; filename="alert_history.csv"');
    expect((await csv.text()).trim().split('\r\n')).toHaveLength(4);
  });

  it('stops from the dialog form and reloads the same page; a sensor of another store fails', async () => {
    const { stopped, control } = await openAlerts();
    const cookie = await sessionOf('store1');
    const form = (fields: Record<string, string>, storeId = 'S001') =>
      call(pageAction, postForm(`/stores/${storeId}/warning_histories?page_no=1&stop=1`, fields, { Cookie: cookie }), { storeId });
    const tooLong = await form({ equipment_id: String(stopped), alert_id: 'OE00000001', comment: 'x'.repeat(201) });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).commentError).toBe('対応コメントは200文字以内で入力してください');
    const done = await form({ equipment_id: String(stopped), alert_id: 'OE00000001', comment: '確認しました' });
    expect(done.status).toBe(302);
    expect(done.headers.get('Location')).toBe('/stores/S001/warning_histories?page_no=1');
    const row = await db.selectFrom('alert_history').select(['stop_comment', 'stopped_by']).where('equipment_id', '=', stopped).executeTakeFirstOrThrow();
    expect(row.stop_comment).toBe('確認しました');
    // The store in the URL must be the sensor's: a forged form for another store fails.
    await createStore(db, 'S003');
    const group = await db.selectFrom('user_usergroups').select('usergroup_id').where('user_id', '=', row.stopped_by!).executeTakeFirstOrThrow();
    await db.insertInto('store_usergroups').values({ store_id: 'S003', usergroup_id: group.usergroup_id }).execute();
    const forged = await form({ equipment_id: String(control), alert_id: 'OE00000001' }, 'S003');
    expect(forged.status).toBe(404);
    expect((await forged.json()).message).toBe('警報停止に失敗しました。');
  });
});

// ---- the value that opened an alert (decision 278) ------------------------------------------

describe('the simulated value that opened a temperature alert', () => {
  it('is kept beside the reading and shown labelled in the list, the API, the CSV and the mail', async () => {
    await createStore(db, 'S001');
    const equipmentId = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01', { equipment_name: 'チルドA', upper_limit: 10, lower_limit: 0, time_constant: 100 });
    await createUser(db, 'store1', 101, { storeIds: ['S001'], mail: 'store1@example.com' });
    const gateway = await pairedStore('S001');
    // 5 °C for ten minutes, then 15 °C: with tau 10 min the simulated product passes 10 °C at
    // the eighth reading of 15 °C (10.5 °C), which opens the alert: the reading says 15.0.
    const minutes = Array.from({ length: 21 }, (_, i) => 20 - i);
    await ingest(gateway, minutes.map((ago) => reading('AA:BB:CC:DD:EE:01', ago, ago > 10 ? 5 : 15)));
    const row = await db.selectFrom('alert_history').selectAll().where('equipment_id', '=', equipmentId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ alert_id: 'OE00000001', alert_data1: '15.0', temperature: 15, simulated_temperature: 10.5 });
    const label = '推定品温 10.5℃（実測 15.0℃）';

    const cookie = await sessionOf('store1');
    const page = await (await call(pageLoader, get('/stores/S001/warning_histories', undefined, { Cookie: cookie }), { storeId: 'S001' })).json();
    expect(page.list.rows[0]).toMatchObject({ alertId: 'OE00000001', alertData: label });

    const api = await (await call(historyLoader, get(`/on-reco/v1/alert_history?equipment_id=${equipmentId}&page_no=1&page_count=10`, await tokenFor('store1', TEST_PASSWORD)))).json();
    expect(api.alerts[0]).toMatchObject({ alert_data1: '15.0', simulated_temperature: 10.5 });

    const csv = await (await call(consoleCsvLoader, get('/stores/S001/warning_histories.csv', undefined, { Cookie: cookie }), { storeId: 'S001' })).text();
    expect(csv.split('\r\n')[1]).toContain(',チルドA,温度異常（上限超過）,15.0,10.5,0.0,10.0,発生中,');

    const mail = await db.selectFrom('mail_outbox').select('body').where('alert_history_id', '=', row.alert_history_id).executeTakeFirstOrThrow();
    expect(mail.body).toContain(`温度:     ${label}\n`);
  });
});
