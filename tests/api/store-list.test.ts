import { beforeEach, describe, expect, it } from 'vitest';
import { loader as storeListLoader } from '~/routes/on-reco+/v1.store_list';
import { loader as prefectureLoader } from '~/routes/on-reco+/v1.prefecture';
import { loader as regionLoader } from '~/routes/on-reco+/v1.region';
import { loader as storegroupLoader } from '~/routes/on-reco+/v1.storegroup';
import { TEST_PASSWORD, createSensor, createStore, createUser } from '../fixtures/chain';
import { syncStoreListEntries } from '~/models/stores.server';
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
    await syncStoreListEntries(db, ['S020']);
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

  it('names a store\'s open gateway buffer alarms among its alert messages, and not once they recovered', async () => {
    await chainOf(2);
    await db.insertInto('alert_history').values([
      { store_id: 'S001', equipment_id: null, alert_id: 'OE00000006', started_at: new Date() },
      { store_id: 'S002', equipment_id: null, alert_id: 'OE00000007', started_at: new Date(Date.now() - 60_000), recovered_at: new Date() },
    ]).execute();
    await createUser(db, 'admin', 1);
    const token = await tokenFor('admin', TEST_PASSWORD);
    const list = await (await call(storeListLoader, get('/on-reco/v1/store_list?page_no=1&page_count=20', token))).json();
    const messages = Object.fromEntries(list.stores.map((store: { store_id: string; alert_messages: string[] }) => [store.store_id, store.alert_messages]));
    expect(messages).toEqual({ S001: ['ゲートウェイのバッファ残量低下（データ欠損のおそれ）'], S002: [] });
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

  describe('paging (docs/decisions/180-dashboard-paging.md)', () => {
    type Listed = { all_count: number; alert_count: number; stores: { store_id: string; store_no: string; store_status: number }[] };
    const list = async (token: string, query: string): Promise<Listed> => (await call(storeListLoader, get(`/on-reco/v1/store_list?${query}`, token))).json();
    /** The dashboard's order computed here from the stores table: in alarm first, then by store number. */
    const expectedOrder = async (where: (store: { prefecture_id: number }) => boolean = () => true) =>
      (await db.selectFrom('stores').select(['store_id', 'store_no', 'store_status', 'prefecture_id']).execute())
        .filter(where)
        .sort((a, b) => Number(b.store_status === 3) - Number(a.store_status === 3) || a.store_no.localeCompare(b.store_no) || a.store_id.localeCompare(b.store_id))
        .map((store) => store.store_id);
    const inAlarm = async (storeIds: string[]) => {
      await db.updateTable('stores').set({ store_status: 3 }).where('store_id', 'in', storeIds).execute();
      await syncStoreListEntries(db, storeIds);
    };
    const adminToken = async () => {
      await createUser(db, 'admin', 1);
      return tokenFor('admin', TEST_PASSWORD);
    };

    it('walks every page to the last in order, none twice, and answers an empty page past the end', async () => {
      await chainOf(45);
      await inAlarm(['S007', 'S031', 'S044']);
      const token = await adminToken();
      const pages = await Promise.all([1, 2, 3].map((pageNo) => list(token, `page_no=${pageNo}&page_count=20`)));
      expect(pages.map((page) => page.stores.length)).toEqual([20, 20, 5]);
      expect(pages.flatMap((page) => page.stores.map((store) => store.store_id))).toEqual(await expectedOrder());
      expect(pages[0].stores.slice(0, 3).map((store) => store.store_status)).toEqual([3, 3, 3]);
      const past = await list(token, 'page_no=4&page_count=20');
      expect(past).toMatchObject({ all_count: 45, alert_count: 3, stores: [] });
      expect((await list(token, 'page_no=100000&page_count=100')).stores).toEqual([]);
    });

    it('breaks the ties of the alarm state by store number on pages of any size and under a filter', async () => {
      await chainOf(30);
      await inAlarm(['S002', 'S003', 'S005', 'S008', 'S013', 'S021', 'S022', 'S029', 'S030', 'S011', 'S017', 'S025']);
      const token = await adminToken();
      for (const [filter, where] of [['', () => true], ['&prefecture_id=13', (store: { prefecture_id: number }) => store.prefecture_id === 13]] as const) {
        const expected = await expectedOrder(where);
        for (const size of [1, 5, 7]) {
          const walked: string[] = [];
          for (let pageNo = 1; pageNo <= Math.ceil(expected.length / size); pageNo += 1) {
            walked.push(...(await list(token, `page_no=${pageNo}&page_count=${size}${filter}`)).stores.map((store) => store.store_id));
          }
          expect(walked).toEqual(expected);
        }
      }
    });

    it('follows a store that changes status, number, name or key between two pages', async () => {
      await chainOf(25);
      const token = await adminToken();
      const before = await expectedOrder();
      expect((await list(token, 'page_no=1&page_count=20')).stores.map((store) => store.store_id)).toEqual(before.slice(0, 20));
      // A store of page 2 goes into alarm: it now leads page 1, and the last of page 1 moves to page 2.
      const moved = before[22];
      await inAlarm([moved]);
      const page1 = await list(token, 'page_no=1&page_count=20');
      expect(page1.alert_count).toBe(1);
      expect(page1.stores[0]).toMatchObject({ store_id: moved, store_status: 3 });
      const page2 = await list(token, 'page_no=2&page_count=20');
      expect(page2.stores.map((store) => store.store_id)).toEqual((await expectedOrder()).slice(20));
      expect(page2.stores.map((store) => store.store_id)).toContain(before[19]);
      // Back to normal, renumbered to sort first, renamed and deleted: the list follows each.
      await db.updateTable('stores').set({ store_status: 2, store_no: '0000001', store_name: 'Shinjuku Flagship' }).where('store_id', '=', moved).execute();
      await syncStoreListEntries(db, [moved]);
      expect((await list(token, 'page_no=1&page_count=20')).stores[0]).toMatchObject({ store_id: moved, store_no: '0000001', store_status: 2 });
      expect((await list(token, `store_name=${encodeURIComponent('FLAG')}`)).stores.map((store) => store.store_id)).toEqual([moved]);
      expect((await list(token, 'store_no=000000')).stores.map((store) => store.store_id)).toEqual([moved]);
      await db.deleteFrom('stores').where('store_id', '=', moved).execute();
      const after = await list(token, 'page_no=2&page_count=20');
      expect(after.all_count).toBe(24);
      expect(after.stores.map((store) => store.store_id)).toEqual((await expectedOrder()).slice(20));
    });

    it('finds a name by any part of it, in any case, even shorter than a trigram', async () => {
      await createStore(db, 'S001', { store_name: 'Shinjuku West' });
      await createStore(db, 'S002', { store_name: '渋谷 駅前店' });
      await createStore(db, 'S003', { store_name: 'Ikebukuro 100%' });
      const token = await adminToken();
      const found = async (name: string) => (await list(token, `store_name=${encodeURIComponent(name)}`)).stores.map((store) => store.store_id);
      expect(await found('JUKU w')).toEqual(['S001']);
      expect(await found('駅前')).toEqual(['S002']);
      expect(await found('i')).toHaveLength(2);
      expect(await found('0%')).toEqual(['S003']);
    });
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
