import { beforeEach, describe, expect, it } from 'vitest';
import { loader as storeListLoader } from '~/routes/on-reco+/v1.store_list';
import { loader as prefectureLoader } from '~/routes/on-reco+/v1.prefecture';
import { loader as regionLoader } from '~/routes/on-reco+/v1.region';
import { loader as storegroupLoader } from '~/routes/on-reco+/v1.storegroup';
import { TEST_PASSWORD, createSensor, createStore, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, tokenFor } from '../support/requests';

const db = testDb();
beforeEach(() => resetDb());

async function chainOf(count: number) {
  for (let i = 1; i <= count; i += 1) {
    await createStore(db, `S${String(i).padStart(3, '0')}`, { prefecture_id: i % 2 ? 13 : 27 });
  }
}

describe('GET /v1/store_list', () => {
  it('pages by 20 with all_count and the stores in alarm first, messages joined once', async () => {
    await chainOf(25);
    const a = await createSensor(db, 'S020', 'AA:BB:CC:DD:EE:01');
    const b = await createSensor(db, 'S020', 'AA:BB:CC:DD:EE:02');
    await db.insertInto('sensor_states').values([
      { store_id: 'S020', equipment_id: a, status: 2, alert_codes: ['OE00000001'] },
      { store_id: 'S020', equipment_id: b, status: 2, alert_codes: ['OE00000001', 'OE00000003'] },
    ]).execute();
    await db.updateTable('stores').set({ store_status: 3 }).where('store_id', '=', 'S020').execute();
    await createUser(db, 'admin', 1);
    const token = await tokenFor('admin', TEST_PASSWORD);
    const page1 = await (await call(storeListLoader, get('/on-reco/v1/store_list?page_no=1&page_count=20', token))).json();
    expect(page1.all_count).toBe(25);
    expect(page1.alert_count).toBe(1);
    expect(page1.stores).toHaveLength(20);
    expect(page1.stores[0]).toMatchObject({ store_id: 'S020', store_status: 3, alert_messages: ['温度異常（上限超過）', '電池残量低下'] });
    expect(Object.keys(page1.stores[1]).sort()).toEqual(['alert_messages', 'receive_sensitivity', 'store_id', 'store_name', 'store_no', 'store_status', 'working_state']);
    const page2 = await (await call(storeListLoader, get('/on-reco/v1/store_list?page_no=2&page_count=20', token))).json();
    expect(page2.stores).toHaveLength(5);
  });

  it('filters by region, prefecture, status, name and number', async () => {
    await chainOf(6);
    await createUser(db, 'admin', 1);
    const token = await tokenFor('admin', TEST_PASSWORD);
    const count = async (query: string) => (await (await call(storeListLoader, get(`/on-reco/v1/store_list?page_no=1&page_count=20&${query}`, token))).json()).all_count;
    expect(await count('prefecture_id=13')).toBe(3);
    expect(await count('region_id=5')).toBe(3); // 近畿: 大阪府
    expect(await count('region_id=1')).toBe(0);
    expect(await count('store_status=0')).toBe(6);
    expect(await count(`store_name=${encodeURIComponent('S003')}`)).toBe(1);
    expect(await count('store_name=%25')).toBe(0); // a literal %, not a wildcard
    expect(await count('company_id=C001&storegroup_id=G01')).toBe(6);
  });

  it('shows other users only the stores of their groups', async () => {
    await chainOf(4);
    await createUser(db, 'area', 30, { storeIds: ['S002', 'S003'] });
    await createUser(db, 'maint', 10);
    const area = await (await call(storeListLoader, get('/on-reco/v1/store_list?page_no=1&page_count=20', await tokenFor('area', TEST_PASSWORD)))).json();
    expect(area.stores.map((store: { store_id: string }) => store.store_id).sort()).toEqual(['S002', 'S003']);
    const maint = await (await call(storeListLoader, get('/on-reco/v1/store_list', await tokenFor('maint', TEST_PASSWORD)))).json();
    expect(maint.all_count).toBe(4);
  });

  it('answers 400 with the field for bad parameters', async () => {
    await createUser(db, 'admin', 1);
    const token = await tokenFor('admin', TEST_PASSWORD);
    for (const [query, field] of [['page_no=abc', 'page_no'], ['page_no=0', 'page_no'], ['page_count=1000', 'page_count'], ['store_status=9', 'store_status'], ['region_id=x', 'region_id']]) {
      const response = await call(storeListLoader, get(`/on-reco/v1/store_list?${query}`, token));
      expect(response.status).toBe(400);
      expect((await response.json()).fields).toHaveProperty(field);
    }
  });
});

describe('lookups', () => {
  it('lists the 8 regions, the 47 prefectures with JIS codes, and store groups per company', async () => {
    await createStore(db, 'S001');
    // Companies and store groups are those of the stores the user sees (the access matrix).
    await createUser(db, 'store', 101, { storeIds: ['S001'] });
    const token = await tokenFor('store', TEST_PASSWORD);
    expect(await (await call(regionLoader, get('/on-reco/v1/region', token))).json()).toHaveLength(8);
    const prefectures = await (await call(prefectureLoader, get('/on-reco/v1/prefecture', token))).json();
    expect(prefectures).toHaveLength(47);
    expect(prefectures.find((p: { prefecture_id: number }) => p.prefecture_id === 13).prefecture_name).toBe('東京都');
    expect(prefectures.find((p: { prefecture_id: number }) => p.prefecture_id === 47).prefecture_name).toBe('沖縄県');
    const kanto = await (await call(prefectureLoader, get('/on-reco/v1/prefecture?region_id=3', token))).json();
    expect(kanto.map((p: { prefecture_id: number }) => p.prefecture_id)).toEqual([8, 9, 10, 11, 12, 13, 14]);
    const groups = await (await call(storegroupLoader, get('/on-reco/v1/storegroup?company_id=C001', token))).json();
    expect(groups).toEqual([{ storegroup_id: 'G01', storegroup_name: '東京エリア', company_id: 'C001', company_name: 'テスト商事' }]);
  });
});
