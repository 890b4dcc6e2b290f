import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { syncStoreListEntries } from '../../app/models/stores.server';
import { toCompactDate } from '../../app/domain/japan-time';
import { storeOfLogin } from '../fixtures/chain';
import { allowFailedLoads, launchBrowser, login, newContext, newPage, screenshot } from '../support/browser';

// The sensors show page (five tabs), the sensor edit form with every 001 §5 message, the
// registration of a heard sensor, and the remembered tab (issue 12). The demo chain's first
// operating store is only looked at; the writes happen on a store of our own (E2ESS01), deleted
// afterwards.

let browser: Browser;
let db: Db;
const OWN = 'E2ESS01';
let sensorId: number;

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
  await db.deleteFrom('stores').where('store_id', '=', OWN).execute();
  await db.insertInto('companies').values({ company_id: 'E2ESS', company_name: 'E2E設定' }).onConflict((oc) => oc.doNothing()).execute();
  await db.insertInto('storegroups').values({ storegroup_id: 'E2ESS', company_id: 'E2ESS', storegroup_name: 'E2E設定グループ' }).onConflict((oc) => oc.doNothing()).execute();
  await db
    .insertInto('stores')
    .values({ store_id: OWN, store_no: '9990101', store_name: 'E2E設定 1号店', company_id: 'E2ESS', storegroup_id: 'E2ESS', prefecture_id: 13, address: '東京都千代田区丸の内1-1-1', opening_date: '2025-04-01', working_state: 1, gateway_info: `GW-${OWN}` })
    .execute();
  await syncStoreListEntries(db, [OWN]);
  const row = await db
    .insertInto('sensors')
    .values({ store_id: OWN, equipment_name: 'E2E 冷蔵ケース', serial_no: 'E2:E0:00:00:00:01', icon_kind: 3, location_no: 1, lower_limit: 0, upper_limit: 10, guard_time: 10, snoozing_time: 30, time_constant: 100, def_time: JSON.stringify([{ start: '02:00', end: '02:30' }]) })
    .returning('equipment_id')
    .executeTakeFirstOrThrow();
  sensorId = row.equipment_id;
  await db.insertInto('heard_sensors').values({ store_id: OWN, serial_no: 'E2:E0:00:00:00:99', format: 'atc1441', temperature: 5.1, receive_sensitivity: -70, heard_at: new Date(Date.now() - 60_000) }).execute();
  const day = toCompactDate(new Date());
  const start = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;
  await db.insertInto('alert_schedules').values({ store_id: OWN, schedule_type: 1, term_type: 2, start_date: start, end_date: start, time_target_type: 1, sun_flg: 0, mon_flg: 0, tue_flg: 0, wed_flg: 0, thu_flg: 0, fri_flg: 0, sat_flg: 0 }).execute();
});

afterAll(async () => {
  await db?.deleteFrom('stores').where('store_id', '=', OWN).execute();
  await db?.deleteFrom('storegroups').where('storegroup_id', '=', 'E2ESS').execute();
  await db?.deleteFrom('companies').where('company_id', '=', 'E2ESS').execute();
  await db?.destroy();
  await browser?.close();
});

const showPath = (storeId: string, tab?: string) => `/stores/${storeId}/sensors/show${tab ? `?tab=${tab}` : ''}`;

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
}

describe('sensors show page', () => {
  it('shows a demo store\'s sensors and its unregistered sensors to maintenance, and every tab', async () => {
    const store = await db.selectFrom('heard_sensors').innerJoin('stores', 'stores.store_id', 'heard_sensors.store_id').select(['stores.store_id', 'stores.store_name']).where('stores.store_id', '!=', OWN).orderBy('stores.store_no').executeTakeFirstOrThrow();
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'maintenance');
    await open(page, showPath(store.store_id));
    await page.getByRole('heading', { level: 1, name: '設定' }).waitFor();
    await page.getByText(store.store_name).first().waitFor();
    const table = page.getByRole('table', { name: 'センサ情報' });
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(0);
    await table.getByText(/℃|〜/).first().waitFor();
    await page.getByRole('region', { name: '未登録センサ' }).getByText('C4:7C:8D:6A:10:21').waitFor();
    await expect(page.getByRole('link', { name: '設定', exact: true }).getAttribute('aria-current')).resolves.toBe('page');
    await screenshot(page, 'sensors-show-sensors');

    await page.locator('a[data-tab="furniture"]').click();
    await page.getByRole('table', { name: '什器情報' }).waitFor();
    await screenshot(page, 'sensors-show-furniture');

    await page.locator('a[data-tab="users"]').click();
    const users = page.getByRole('table', { name: 'ユーザー情報' });
    await users.waitFor();
    expect(await page.getByRole('link', { name: '新規ユーザー' }).getAttribute('href')).toBe(`/stores/${store.store_id}/users/create`);
    expect(await users.getByRole('link', { name: /を編集$/ }).first().getAttribute('href')).toMatch(new RegExp(`^/stores/${store.store_id}/users/\\d+/edit$`));
    await screenshot(page, 'sensors-show-users');

    await page.locator('a[data-tab="diagram"]').click();
    await page.waitForURL(/tab=diagram/);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'sensors-show-diagram');

    await page.locator('a[data-tab="alert-stop"]').click();
    const title = page.getByTestId('calendar-title');
    const today = toCompactDate(new Date());
    await expect.poll(() => title.textContent()).toBe(`${today.slice(0, 4)}年 ${Number(today.slice(4, 6))}月`);
    const headers = await page.getByRole('columnheader').allTextContents();
    expect(headers.slice(0, 7)).toEqual(['日', '月', '火', '水', '木', '金', '土']);
    await screenshot(page, 'sensors-show-alert-stop');
    await page.getByRole('link', { name: '次の月' }).click();
    await expect.poll(() => title.textContent()).not.toBe(`${today.slice(0, 4)}年 ${Number(today.slice(4, 6))}月`);
    await page.getByRole('link', { name: '今日' }).click();
    await expect.poll(() => title.textContent()).toBe(`${today.slice(0, 4)}年 ${Number(today.slice(4, 6))}月`);
    const day = page.locator(`a[data-day="${today}"]`);
    expect(await day.getAttribute('href')).toBe(`/stores/${store.store_id}/warning_stop_time/${today}/${today}`);
  });

  it('highlights the days with alert-stop schedules, applies the remembered tab once, and is 403 for store users', async () => {
    const context = await newContext(browser, { viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await login(page, 'admin');
    await open(page, showPath(OWN, 'alert-stop'));
    const today = toCompactDate(new Date());
    expect(await page.locator(`a[data-day="${today}"]`).getAttribute('data-scheduled')).toBe('1');
    expect(await page.locator('a[data-scheduled="1"]').count()).toBe(1);
    // Remembered by another page (the alert-stop list's back button): applied on entry, then cleared.
    await page.evaluate(() => window.sessionStorage.setItem('onreco.sensorsShowTab', 'alert-stop'));
    await open(page, showPath(OWN));
    await page.waitForURL(/tab=alert-stop/);
    await page.getByTestId('calendar-title').waitFor();
    expect(await page.evaluate(() => window.sessionStorage.getItem('onreco.sensorsShowTab'))).toBeNull();
    await open(page, showPath(OWN));
    await page.getByRole('table', { name: 'センサ情報' }).waitFor();
    expect(page.url()).not.toMatch(/tab=/);

    allowFailedLoads(403);
    const own = await storeOfLogin(db, 'storeuser');
    const storeUser = await newPage(browser);
    await login(storeUser, 'storeuser');
    const response = await storeUser.goto(showPath(own.store_id));
    expect(response?.status()).toBe(403);
  });
});

describe('sensor edit', () => {
  it('shows every 001 §5 message at its field, saves, and returns to the sensors show page', async () => {
    allowFailedLoads(400, 409);
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, showPath(OWN));
    await page.getByRole('link', { name: 'E2E 冷蔵ケースを編集' }).click();
    await page.getByRole('heading', { name: 'センサ情報編集' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByLabel('センサ名').inputValue()).toBe('E2E 冷蔵ケース');
    expect(await page.getByTestId('name-counter').textContent()).toBe('9 / 30');
    await screenshot(page, 'sensor-edit');

    const fieldError = (id: string) => page.locator(`[id="${id}-error"]`);
    const submit = () => page.getByRole('button', { name: '保存' }).click();
    const expectMessage = async (id: string, message: string) => expect.poll(() => fieldError(id).textContent()).toBe(message);

    await page.getByLabel('センサ名').fill('');
    await page.getByLabel('下限 (℃)').fill('');
    await page.getByLabel('ガード時間 (分)').fill('361');
    await page.getByLabel('スヌーズ時間 (分)').fill('abc');
    await page.getByLabel('時定数 (%)').fill('201');
    await submit();
    await expectMessage('equipment_name', '入力してください');
    await expectMessage('lower_limit', '入力の範囲が違います');
    await expectMessage('guard_time', '範囲が違います');
    await expectMessage('snoozing_time', '数字を入力してください');
    await expectMessage('time_constant', '範囲が違います');
    await page.getByText('入力に誤りがあります').waitFor();
    await screenshot(page, 'sensor-edit-errors');

    await page.getByLabel('センサ名').fill('あ'.repeat(31));
    expect(await page.getByTestId('name-counter').textContent()).toBe('31 / 30');
    await page.getByLabel('下限 (℃)').fill('abc');
    await page.getByLabel('上限 (℃)').fill('60.5');
    await page.getByLabel('ガード時間 (分)').fill('');
    await page.getByLabel('スヌーズ時間 (分)').fill('');
    await page.getByLabel('時定数 (%)').fill('');
    await submit();
    await expectMessage('equipment_name', '30文字以内で入力してください');
    await expectMessage('lower_limit', '半角数値を入力してください');
    await page.getByLabel('下限 (℃)').fill('-30.5');
    await submit();
    await expectMessage('lower_limit', '入力の範囲が違います');
    await page.getByLabel('下限 (℃)').fill('5');
    await page.getByLabel('上限 (℃)').fill('4');
    await submit();
    await expectMessage('lower_limit', '入力の範囲が違います');
    await page.getByLabel('上限 (℃)').fill('8.25');
    await submit();
    await expectMessage('upper_limit', 'フォーマットが違います');

    // Defrost ranges: start not before end, and overlaps.
    await page.getByLabel('センサ名').fill('E2E 冷蔵ケース 改');
    await page.getByLabel('上限 (℃)').fill('8.5');
    await page.getByLabel('霜取り2 開始').fill('05:00');
    await page.getByLabel('霜取り2 終了').fill('04:00');
    await submit();
    await expectMessage('def_time.1', '開始は終了より前にしてください');
    await page.getByLabel('霜取り2 開始').fill('02:15');
    await page.getByLabel('霜取り2 終了').fill('03:00');
    await submit();
    await expectMessage('def_time.1', '時間帯が重複しています');
    await page.getByLabel('霜取り2 開始').fill('04:00');
    await page.getByLabel('霜取り2 終了').fill('04:30');
    await page.getByRole('radio', { name: '冷凍食品' }).check({ force: true });
    await submit();
    await page.waitForURL(`**${showPath(OWN, 'sensors')}`);
    const row = page.getByRole('table', { name: 'センサ情報' }).locator(`tr[data-equipment-id="${sensorId}"]`);
    await row.getByText('E2E 冷蔵ケース 改').waitFor();
    await row.getByText('5.0 〜 8.5').waitFor();
    const saved = await db.selectFrom('sensors').selectAll().where('equipment_id', '=', sensorId).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ lower_limit: 5, upper_limit: 8.5, icon_kind: 10, guard_time: null, time_constant: 100 });
    expect(saved.def_time).toEqual([{ start: '02:00', end: '02:30' }, { start: '04:00', end: '04:30' }]);
  });

  it('asks before discarding edits, and refuses a stale save with a clear message', async () => {
    allowFailedLoads(409);
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, `/stores/${OWN}/sensors/${sensorId}/edit`);
    await page.getByLabel('センサ名').fill('途中の名前');
    await page.getByRole('link', { name: '閉じる' }).click();
    await page.getByRole('button', { name: '編集を続ける' }).click();
    expect(await page.getByLabel('センサ名').inputValue()).toBe('途中の名前');
    // Someone else saves meanwhile.
    await db.updateTable('sensors').set({ updated_at: new Date() }).where('equipment_id', '=', sensorId).execute();
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('このセンサは他のユーザーによって更新されました').waitFor();
    expect((await db.selectFrom('sensors').select('equipment_name').where('equipment_id', '=', sensorId).executeTakeFirstOrThrow()).equipment_name).not.toBe('途中の名前');
    await screenshot(page, 'sensor-edit-stale');
    await page.getByRole('link', { name: '閉じる' }).click();
    await page.getByRole('button', { name: 'データを破棄' }).click();
    await page.waitForURL(`**${showPath(OWN, 'sensors')}`);
  });

  it('works without JavaScript: the server\'s messages at the same fields', async () => {
    allowFailedLoads(400);
    const context = await newContext(browser, { javaScriptEnabled: false, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('ID').fill('admin');
    await page.getByLabel('PASSWORD').fill(inject('demoPassword'));
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto(`/stores/${OWN}/sensors/${sensorId}/edit`);
    await page.getByLabel('上限 (℃)').fill('');
    await page.getByLabel('ガード時間 (分)').fill('0');
    await page.getByRole('button', { name: '保存' }).click();
    await page.locator('[id="upper_limit-error"]').waitFor();
    expect(await page.locator('[id="upper_limit-error"]').textContent()).toBe('入力の範囲が違います');
    expect(await page.locator('[id="guard_time-error"]').textContent()).toBe('範囲が違います');
    await screenshot(page, 'sensor-edit-no-js');
  });

  it('registers a heard sensor from the sensors show page (serial prefilled); the icon must be chosen', async () => {
    allowFailedLoads(400);
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, showPath(OWN));
    await page.getByRole('link', { name: 'E2:E0:00:00:00:99を登録' }).click();
    await page.getByRole('heading', { name: 'センサ登録' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByLabel('シリアルNo (BLEアドレス)').inputValue()).toBe('E2:E0:00:00:00:99');
    await page.getByLabel('センサ名').fill('E2E 新しいケース');
    await page.getByRole('button', { name: '登録' }).click();
    await expect.poll(() => page.locator('[id="icon_kind-error"]').textContent()).toBe('選択してください');
    await page.getByRole('radio', { name: 'アイス' }).check({ force: true });
    await page.getByLabel('下限 (℃)').fill('-25');
    await page.getByLabel('上限 (℃)').fill('-18');
    await screenshot(page, 'sensor-register');
    await page.getByRole('button', { name: '登録' }).click();
    await page.waitForURL(`**${showPath(OWN, 'sensors')}`);
    await page.getByRole('table', { name: 'センサ情報' }).getByText('E2E 新しいケース').waitFor();
    await page.getByRole('region', { name: '未登録センサ' }).getByText('ゲートウェイが受信している未登録のセンサはありません。').waitFor();
  });
});
