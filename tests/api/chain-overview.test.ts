import { beforeEach, describe, expect, it } from 'vitest';
import { loader as overviewLoader } from '~/routes/on-reco+/v1.chain_overview';
import { ALERT_CODES } from '~/domain/alert-codes';
import { AUTHORITY } from '~/domain/roles';
import { STORE_STATUS } from '~/domain/store-status';
import { syncStoreListEntries } from '~/models/stores.server';
import { TEST_PASSWORD, createSensor, createStore, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, tokenFor } from '../support/requests';

const db = testDb();
beforeEach(() => resetDb());

/** Five stores: S1, S2 in 東京都 (S1 in alarm on two sensors), S3 in 大阪府 (alarm on one), S4 大阪府 operating, S5 北海道 not connected. */
async function chain() {
  const places: [string, number, number][] = [['S1', 13, STORE_STATUS.warning], ['S2', 13, STORE_STATUS.inOperation], ['S3', 27, STORE_STATUS.warning], ['S4', 27, STORE_STATUS.inOperation], ['S5', 1, STORE_STATUS.notConnected]];
  for (const [storeId, prefectureId] of places) await createStore(db, storeId, { prefecture_id: prefectureId });
  const a = await createSensor(db, 'S1', 'AA:BB:CC:00:00:01');
  const b = await createSensor(db, 'S1', 'AA:BB:CC:00:00:02');
  const c = await createSensor(db, 'S3', 'AA:BB:CC:00:00:03');
  const d = await createSensor(db, 'S4', 'AA:BB:CC:00:00:04');
  await db.updateTable('sensors').set({ measure_target_equipment_kind_id: 3 }).where('equipment_id', 'in', [a, c]).execute();
  await db.insertInto('sensor_states').values([
    { store_id: 'S1', equipment_id: a, status: 2, alert_codes: [ALERT_CODES.upperLimit] },
    { store_id: 'S1', equipment_id: b, status: 2, alert_codes: [ALERT_CODES.upperLimit, ALERT_CODES.batteryLow] },
    { store_id: 'S3', equipment_id: c, status: 2, alert_codes: [ALERT_CODES.upperLimit] },
    // A pending excursion (guard time running): a sensor at status 1 without an open alert.
    { store_id: 'S4', equipment_id: d, status: 1, alert_codes: [] },
  ]).execute();
  for (const [storeId, , status] of places) await db.updateTable('stores').set({ store_status: status }).where('store_id', '=', storeId).execute();
  await syncStoreListEntries(db, places.map(([storeId]) => storeId));
  await db.insertInto('alert_history').values({ store_id: 'S5', equipment_id: null, alert_id: ALERT_CODES.gatewayBufferFilling, started_at: new Date() }).execute();
}

const overview = async (token: string, query = '') => call(overviewLoader, get(`/on-reco/v1/chain_overview${query}`, token));
const prefecture = (body: { prefectures: { prefecture_id: number }[] }, id: number) => body.prefectures.find((p) => p.prefecture_id === id);

describe('GET /v1/chain_overview', () => {
  it('counts the chain by status, alert kind, region, prefecture, store group and furniture kind, worst stores first', async () => {
    await chain();
    await createUser(db, 'admin', AUTHORITY.administrator);
    const answer = await overview(await tokenFor('admin', TEST_PASSWORD));
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body).toMatchObject({ store_count: 5, alarm_store_count: 2 });
    expect(body.generated_at).toMatch(/^\d{14}$/);
    expect(body.statuses).toEqual([
      { store_status: 0, label: '未接続', store_count: 1 },
      { store_status: 1, label: '停止中', store_count: 0 },
      { store_status: 2, label: '稼働中', store_count: 2 },
      { store_status: 3, label: '警報発生中', store_count: 2 },
    ]);
    expect(body.alert_kinds).toEqual([
      { alert_id: 'OE00000001', label: '温度異常（上限超過）', sensor_count: 3, store_count: 2 },
      { alert_id: 'OE00000003', label: '電池残量低下', sensor_count: 1, store_count: 1 },
      { alert_id: 'OE00000006', label: 'ゲートウェイのバッファ残量低下（データ欠損のおそれ）', sensor_count: 0, store_count: 1 },
    ]);
    expect(prefecture(body, 13)).toMatchObject({ prefecture_name: '東京都', region_id: 3, store_count: 2, alarm_store_count: 1, not_connected_count: 0, worst_status: 3 });
    expect(prefecture(body, 1)).toMatchObject({ store_count: 1, alarm_store_count: 0, not_connected_count: 1, worst_status: 0 });
    expect(prefecture(body, 47)).toMatchObject({ store_count: 0, worst_status: 2 });
    expect(body.prefectures).toHaveLength(47);
    expect(body.regions.find((r: { region_id: number }) => r.region_id === 5)).toMatchObject({ region_name: '近畿', store_count: 2, alarm_store_count: 1 });
    expect(body.storegroups).toEqual([{ storegroup_id: 'G01', storegroup_name: expect.any(String), company_id: 'C001', store_count: 5, alarm_store_count: 2, not_connected_count: 1 }]);
    expect(body.furniture_kinds).toEqual([
      { measure_target_equipment_kind_id: 3, name: 'リーチイン冷凍ケース', alarm_sensor_count: 2, pending_sensor_count: 0 },
      { measure_target_equipment_kind_id: null, name: '未設定', alarm_sensor_count: 1, pending_sensor_count: 1 },
    ]);
    expect(body.worst_stores.map((store: { store_id: string; alarm_sensor_count: number }) => [store.store_id, store.alarm_sensor_count])).toEqual([['S1', 2], ['S3', 1], ['S5', 0]]);
    const two = await (await overview(await tokenFor('admin', TEST_PASSWORD), '?worst_count=1')).json();
    expect(two.worst_stores.map((store: { store_id: string }) => store.store_id)).toEqual(['S1']);
  });

  it('takes the dashboard\'s filters', async () => {
    await chain();
    await createUser(db, 'admin', AUTHORITY.administrator);
    const token = await tokenFor('admin', TEST_PASSWORD);
    const kinki = await (await overview(token, '?region_id=5')).json();
    expect(kinki).toMatchObject({ store_count: 2, alarm_store_count: 1 });
    expect(kinki.worst_stores.map((store: { store_id: string }) => store.store_id)).toEqual(['S3']);
    expect((await (await overview(token, '?company_id=NOPE')).json()).store_count).toBe(0);
  });

  it('counts only the stores a manager sees, and refuses store users', async () => {
    await chain();
    await createUser(db, 'area', AUTHORITY.areaManager, { storeIds: ['S2', 'S3'] });
    await createUser(db, 'store', AUTHORITY.storeUser, { storeIds: ['S1'] });
    await createUser(db, 'maint', AUTHORITY.maintenance);
    const area = await (await overview(await tokenFor('area', TEST_PASSWORD))).json();
    expect(area).toMatchObject({ store_count: 2, alarm_store_count: 1 });
    expect(area.alert_kinds).toEqual([{ alert_id: 'OE00000001', label: '温度異常（上限超過）', sensor_count: 1, store_count: 1 }]);
    expect(area.worst_stores.map((store: { store_id: string }) => store.store_id)).toEqual(['S3']);
    expect(prefecture(area, 1)).toMatchObject({ store_count: 0 });
    expect(area.furniture_kinds).toEqual([{ measure_target_equipment_kind_id: 3, name: 'リーチイン冷凍ケース', alarm_sensor_count: 1, pending_sensor_count: 0 }]);
    const refused = await overview(await tokenFor('store', TEST_PASSWORD));
    expect(refused.status).toBe(403);
    expect((await (await overview(await tokenFor('maint', TEST_PASSWORD))).json()).store_count).toBe(5);
  });

  it('answers 400 with the field for bad parameters', async () => {
    await createUser(db, 'admin', AUTHORITY.administrator);
    const token = await tokenFor('admin', TEST_PASSWORD);
    for (const [query, field] of [['?worst_count=0', 'worst_count'], ['?worst_count=101', 'worst_count'], ['?worst_count=x', 'worst_count'], ['?region_id=-1', 'region_id']] as const) {
      const answer = await overview(token, query);
      expect(answer.status, query).toBe(400);
      expect((await answer.json()).fields, query).toHaveProperty(field);
    }
  });
});
