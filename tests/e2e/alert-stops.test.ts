import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { syncStoreListEntries } from '../../app/models/stores.server';
import { toCompactDate } from '../../app/domain/japan-time';
import { allowFailedLoads, launchBrowser, login, newContext, newPage, screenshot } from '../support/browser';

// The alert-stop list and editor (001 §2): create with the grid and the time-set dialog, each
// message of 001 §5, edit to a per-sensor target, delete with its confirmation and its failure,
// back to the calendar, and the editor without JavaScript. On a store of our own (E2EAS01).

let browser: Browser;
let db: Db;
const STORE = 'E2EAS01';
const today = toCompactDate(new Date());
const iso = `${today.slice(0, 4)}-${today.slice(4, 6)}-${today.slice(6, 8)}`;
const listPath = `/stores/${STORE}/warning_stop_time/${today}/${today}`;

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
  await db.deleteFrom('stores').where('store_id', '=', STORE).execute();
  await db.insertInto('companies').values({ company_id: 'E2EAS', company_name: 'E2E警報停止' }).onConflict((oc) => oc.doNothing()).execute();
  await db.insertInto('storegroups').values({ storegroup_id: 'E2EAS', company_id: 'E2EAS', storegroup_name: 'E2E警報停止グループ' }).onConflict((oc) => oc.doNothing()).execute();
  await db
    .insertInto('stores')
    .values({ store_id: STORE, store_no: '9990801', store_name: 'E2E警報停止店', company_id: 'E2EAS', storegroup_id: 'E2EAS', prefecture_id: 13, address: '東京都港区芝公園1-1-1', opening_date: '2025-04-01', working_state: 1, store_status: 2, gateway_info: `GW-${STORE}` })
    .execute();
  await syncStoreListEntries(db, [STORE]);
  for (const [index, name] of ['冷蔵ケース 1', '冷凍ケース 2'].entries()) {
    await db.insertInto('sensors').values({ store_id: STORE, equipment_name: name, serial_no: `AA:BB:E2:AS:00:0${index + 1}`, icon_kind: 3, location_no: index + 1, lower_limit: 0, upper_limit: 10, def_time: '[]' }).execute();
  }
});

afterAll(async () => {
  await db?.deleteFrom('stores').where('store_id', '=', STORE).execute();
  await db?.deleteFrom('storegroups').where('storegroup_id', '=', 'E2EAS').execute();
  await db?.deleteFrom('companies').where('company_id', '=', 'E2EAS').execute();
  await db?.destroy();
  await browser?.close();
});

const cell = (page: Page, row: string, start: string) => page.locator(`label[title^="${row} ${start}〜"]`);

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
}

describe('alert-stop list and editor', () => {
  it('creates a window with the grid and the dialog, after showing each message', async () => {
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, listPath);
    await page.getByRole('heading', { name: '警報停止時間一覧' }).waitFor();
    await page.getByText('該当する検索結果はありません').waitFor();
    await screenshot(page, 'alert-stop-list-empty');

    await page.getByRole('link', { name: '新規追加' }).click();
    await page.getByRole('heading', { name: '警報停止時間登録' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByLabel('開始日').inputValue()).toBe(iso);
    // Nothing set: 警報停止時間を設定してください, with the banner.
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('警報停止時間を設定してください').waitFor();
    await page.getByText('入力に誤りがあります').waitFor();
    // A free period whose end is before its start: 期間の指定が違います.
    await page.getByLabel('期間指定').check();
    await page.getByLabel('終了日').fill('2020-01-01');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('期間の指定が違います').waitFor();
    await screenshot(page, 'alert-stop-edit-messages');
    await page.getByRole('button', { name: 'クリア', exact: true }).first().click();
    expect(await page.getByLabel('終了日').inputValue()).toBe('');
    await page.getByLabel('日', { exact: true }).check();

    // A cell on the hour: the dialog proposes 30 minutes; the end becomes 12:00 and the cells are set.
    await cell(page, '店舗全体', '10:00').click();
    const dialog = page.getByRole('dialog', { name: '警報停止時間の設定' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('開始').inputValue()).toBe(String(10 * 60));
    expect(await dialog.getByLabel('終了').inputValue()).toBe(String(10 * 60 + 30));
    await screenshot(page, 'alert-stop-edit-dialog');
    // Start not before end is refused in the dialog.
    await dialog.getByLabel('終了').selectOption(String(9 * 60));
    await dialog.getByRole('button', { name: '決定' }).click();
    await dialog.getByText('開始時刻は終了時刻より前にしてください').waitFor();
    await dialog.getByLabel('終了').selectOption(String(12 * 60));
    await dialog.getByRole('button', { name: '決定' }).click();
    await dialog.waitFor({ state: 'detached' });
    for (const start of ['10:00', '10:30', '11:00', '11:30']) expect(await cell(page, '店舗全体', start).locator('input').isChecked()).toBe(true);
    expect(await cell(page, '店舗全体', '12:00').locator('input').isChecked()).toBe(false);
    // A half-hour cell proposes up to the next full hour; end 00:00 is 24:00. Keyboard: Escape cancels.
    await cell(page, '店舗全体', '23:30').click();
    await dialog.waitFor();
    expect(await dialog.getByLabel('終了').inputValue()).toBe('0');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await cell(page, '店舗全体', '22:30').click();
    await dialog.getByLabel('終了').selectOption('0');
    await dialog.getByRole('button', { name: '決定' }).click();
    await screenshot(page, 'alert-stop-edit-grid');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(`**${listPath}`);
    await page.getByText('10:00〜12:00, 22:30〜24:00').waitFor();
    await screenshot(page, 'alert-stop-list');
  });

  it('edits the window to a per-sensor target, then deletes it after the confirmation', async () => {
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, listPath);
    await page.getByRole('link', { name: '編集' }).first().click();
    await page.getByRole('heading', { name: '警報停止時間編集' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByLabel('センサ別').check();
    await cell(page, '冷凍ケース 2', '03:00').click();
    const dialog = page.getByRole('dialog', { name: '警報停止時間の設定' });
    await dialog.getByRole('button', { name: '決定' }).click();
    await dialog.waitFor({ state: 'detached' });
    // A set cell opens the dialog on its whole run; クリア empties it.
    await cell(page, '冷凍ケース 2', '03:00').click();
    expect(await dialog.getByLabel('終了').inputValue()).toBe(String(3 * 60 + 30));
    await dialog.getByRole('button', { name: 'クリア' }).click();
    expect(await cell(page, '冷凍ケース 2', '03:00').locator('input').isChecked()).toBe(false);
    await cell(page, '冷凍ケース 2', '04:00').click();
    await dialog.getByRole('button', { name: '決定' }).click();
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(`**${listPath}`);
    await page.getByText('冷凍ケース 2:').waitFor();
    await page.getByText('04:00〜04:30').waitFor();

    await page.getByRole('link', { name: '削除' }).first().click();
    const confirm = page.getByRole('alertdialog', { name: '削除しますか？' });
    await confirm.waitFor();
    await screenshot(page, 'alert-stop-list-delete');
    await confirm.getByRole('button', { name: '削除' }).click();
    await page.getByText('該当する検索結果はありません').waitFor();
    expect(await db.selectFrom('alert_schedules').select('schedule_id').where('store_id', '=', STORE).execute()).toEqual([]);
  });

  it('says 削除に失敗しました。 when the delete fails, and the list reloads', async () => {
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    const { schedule_id } = await db
      .insertInto('alert_schedules')
      .values({ store_id: STORE, schedule_type: 1, term_type: 2, start_date: iso, end_date: iso, time_target_type: 1, sun_flg: 0, mon_flg: 0, tue_flg: 0, wed_flg: 0, thu_flg: 0, fri_flg: 0, sat_flg: 0 })
      .returning('schedule_id')
      .executeTakeFirstOrThrow();
    await db.insertInto('alert_schedule_times').values({ store_id: STORE, schedule_id, equipment_id: null, start_minute: 60, end_minute: 120 }).execute();
    await open(page, listPath);
    await page.getByRole('link', { name: '削除' }).click();
    await page.getByRole('alertdialog', { name: '削除しますか？' }).waitFor();
    // Someone else deletes it first.
    await db.deleteFrom('alert_schedules').where('schedule_id', '=', schedule_id).execute();
    allowFailedLoads(400);
    await page.getByRole('button', { name: '削除' }).click();
    const failed = page.getByRole('alertdialog', { name: '削除に失敗しました。' });
    await failed.waitFor();
    await screenshot(page, 'alert-stop-list-delete-failed');
    await failed.getByRole('link', { name: 'OK' }).click();
    await page.getByText('該当する検索結果はありません').waitFor();
  });

  it('goes back to the calendar with the alert-stop tab remembered', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    await open(page, listPath);
    allowFailedLoads(404);
    await page.getByRole('link', { name: 'カレンダーに戻る' }).click();
    // The sensors show page opens on the remembered tab, then forgets it (001 §2).
    await page.waitForURL(`**/stores/${STORE}/sensors/show?tab=alert-stop`);
    await page.locator('[data-tab="alert-stop"][aria-current="page"]').waitFor();
    expect(await page.evaluate(() => window.sessionStorage.getItem('onreco.sensorsShowTab'))).toBeNull();
  });

  it('saves without JavaScript: the cells are checkboxes, and the server shows its messages', async () => {
    const context = await newContext(browser, { javaScriptEnabled: false, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await login(page, 'admin'); // the login form posts without JavaScript too
    await page.goto(`/stores/${STORE}/warning_stop_time/${today}/${today}/null/edit`);
    await page.getByRole('heading', { name: '警報停止時間登録' }).waitFor();
    allowFailedLoads(400);
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('警報停止時間を設定してください').waitFor();
    await cell(page, '店舗全体', '06:00').click();
    await cell(page, '店舗全体', '06:30').click();
    await screenshot(page, 'alert-stop-edit-nojs');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(`**${listPath}`);
    await page.getByText('06:00〜07:00').waitFor();
    await context.close();
  });
});
