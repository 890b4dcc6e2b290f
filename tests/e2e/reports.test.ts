import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { syncStoreListEntries } from '../../app/models/stores.server';
import { allowFailedLoads, launchBrowser, login, newPage, screenshot } from '../support/browser';

// The report screens (001 §2): report create (sequential and regular), the reports page's two
// tabs, the regular edit page and the delete dialog, on a store of our own (E2ERP01).

let browser: Browser;
let db: Db;
const STORE = 'E2ERP01';
const SHOTS = '/work/shots/h14a';

async function shot(page: Page, name: string) {
  await screenshot(page, name);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
  await db.deleteFrom('stores').where('store_id', '=', STORE).execute();
  await db.insertInto('companies').values({ company_id: 'E2ERP', company_name: 'E2Eレポート' }).onConflict((oc) => oc.doNothing()).execute();
  await db.insertInto('storegroups').values({ storegroup_id: 'E2ERP', company_id: 'E2ERP', storegroup_name: 'E2Eレポート' }).onConflict((oc) => oc.doNothing()).execute();
  await db
    .insertInto('stores')
    .values({ store_id: STORE, store_no: '998801', store_name: 'E2E レポート店', company_id: 'E2ERP', storegroup_id: 'E2ERP', prefecture_id: 13, address: '東京都港区1-1', opening_date: '2025-04-01', working_state: 1, gateway_info: `GW-${STORE}` })
    .execute();
  await syncStoreListEntries(db, [STORE]);
  await db
    .insertInto('sensors')
    .values([
      { store_id: STORE, equipment_name: '冷蔵ケース1', serial_no: 'AA:BB:E2:00:00:01', icon_kind: 1, location_no: 1, lower_limit: 0, upper_limit: 10, def_time: '[]' },
      { store_id: STORE, equipment_name: '冷凍庫', serial_no: 'AA:BB:E2:00:00:02', icon_kind: 2, location_no: 2, lower_limit: -25, upper_limit: -15, def_time: '[]' },
      { store_id: STORE, equipment_name: '予備センサー', serial_no: 'AA:BB:E2:00:00:03', icon_kind: 1, location_no: 3, disp_flg: 0, def_time: '[]' },
    ])
    .execute();
});

afterAll(async () => {
  await db?.deleteFrom('stores').where('store_id', '=', STORE).execute();
  await db?.deleteFrom('storegroups').where('storegroup_id', '=', 'E2ERP').execute();
  await db?.deleteFrom('companies').where('company_id', '=', 'E2ERP').execute();
  await db?.destroy();
  await browser?.close();
});

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForLoadState('networkidle');
}

describe('report screens', () => {
  it('refuses a bad form with 入力に誤りがあります and the reasons at the fields, then creates a sequential report shown 作成中', async () => {
    allowFailedLoads(400);
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, `/stores/${STORE}/reports/create`);
    await page.getByRole('heading', { name: 'レポート作成' }).waitFor();
    // Defaults (001 §4): sequential, month, every 10 minutes, PDF, mail on with the attachment.
    expect(await page.getByLabel('随時').isChecked()).toBe(true);
    expect(await page.getByLabel('月', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('10分毎').isChecked()).toBe(true);
    expect(await page.getByLabel('PDF').isChecked()).toBe(true);
    expect(await page.getByLabel('レポートを添付する').isChecked()).toBe(true);
    // The hidden sensor is offered, dimmed.
    await page.getByText('（非表示）').waitFor();
    await shot(page, 'report-create-defaults');
    await page.getByLabel('間隔を指定').check();
    await page.getByLabel('間隔（分）').fill('25');
    await page.getByLabel('宛先メールアドレス（1行に1件）').fill('tencho@example');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByRole('alert').filter({ hasText: '入力に誤りがあります' }).waitFor();
    await page.getByText('10単位で指定してください').waitFor();
    await page.getByText('メールアドレスの形式が違います').waitFor();
    await page.getByText('センサーを選択してください').waitFor();
    expect(await page.locator('p.field-error', { hasText: '入力してください' }).count()).toBe(1);
    await shot(page, 'report-create-errors');

    await page.getByLabel('ファイル名').fill('本日の温度');
    await page.getByLabel('日', { exact: true }).check();
    await page.getByLabel('10分毎').check();
    await page.getByLabel('CSV').check();
    await page.getByLabel('受信しない').check();
    await page.getByLabel('冷蔵ケース1').check();
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByRole('alertdialog').getByText('レポートを作成しました。作成とメール配信には数分かかる場合があります。').waitFor();
    await shot(page, 'report-create-done');
    await page.getByRole('link', { name: 'OK' }).click();
    await page.waitForURL(`**/stores/${STORE}/reports`);
    const row = page.getByRole('row').filter({ hasText: '本日の温度' });
    await row.waitFor();
    // Made by the worker: 作成中 until then, then the CSV link.
    await expect.poll(async () => (await row.textContent()) ?? '').toMatch(/作成中|CSV/);
    await page.getByText(/全1件/).waitFor();
    await shot(page, 'reports-history');
  });

  it('creates a regular report, opens it from the regular tab, edits it and deletes it through the dialog', async () => {
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, `/stores/${STORE}/reports/create`);
    await page.getByLabel('定期').check();
    // Free period is for sequential reports only.
    expect(await page.getByLabel('任意期間').count()).toBe(0);
    await page.getByLabel('レポート名').fill('月次温度記録');
    await page.getByLabel('ファイル名').fill('月次');
    await page.getByLabel('時刻を指定').check();
    await page.getByLabel('指定時刻').fill('08:00, 17:00, 08:00');
    await page.getByLabel('宛先メールアドレス（1行に1件）').fill('tencho@example.com');
    await page.getByLabel('冷蔵ケース1').check();
    await page.getByLabel('冷凍庫').check();
    // The appendix is on by default and only a PDF's: it goes with CSV and comes back with PDF.
    const appendix = page.getByLabel('付録（測定値一覧）');
    expect(await appendix.isChecked()).toBe(true);
    await page.getByLabel('CSV').check();
    await appendix.waitFor({ state: 'detached' });
    await page.getByLabel('PDF').check();
    await appendix.uncheck();
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByRole('alertdialog').getByText('レポートを作成しました。定期レポート一覧から編集できます。').waitFor();
    await page.getByRole('link', { name: 'OK' }).click();
    await page.waitForURL(`**/stores/${STORE}/reports?type=reqular`);
    await page.getByText('定期レポートは最大10件まで設定できます').waitFor();
    const row = page.getByRole('row').filter({ hasText: '月次温度記録' });
    await row.getByText('月', { exact: true }).waitFor();
    await shot(page, 'reports-regular');
    await row.getByRole('cell').first().click();
    await page.waitForURL(/\/regular_report\/\d+\/edit$/);
    await page.getByRole('heading', { name: 'レポート作成' }).waitFor();
    expect(await page.getByLabel('レポート名').inputValue()).toBe('月次温度記録');
    expect(await page.getByLabel('時刻を指定').isChecked()).toBe(true);
    expect(await page.getByLabel('指定時刻').inputValue()).toBe('08:00, 17:00');
    expect(await page.getByLabel('冷凍庫').isChecked()).toBe(true);
    expect(await page.getByLabel('予備センサー').isChecked()).toBe(false);
    expect(await page.getByLabel('付録（測定値一覧）').isChecked()).toBe(false);
    expect((await db.selectFrom('regular_reports').select('appendix').where('store_id', '=', STORE).executeTakeFirstOrThrow()).appendix).toBe(0);
    await shot(page, 'regular-report-edit');
    await page.getByLabel('レポート名').fill('月次温度記録（本部）');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByRole('link', { name: 'OK' }).click();
    await page.waitForURL(`**/stores/${STORE}/reports?type=reqular`);
    const edited = page.getByRole('row').filter({ hasText: '月次温度記録（本部）' });
    await edited.getByRole('link', { name: /を削除$/ }).click();
    await page.getByRole('alertdialog').getByText('本当に削除してもよろしいですか？').waitFor();
    await shot(page, 'reports-regular-delete');
    await page.getByRole('alertdialog').getByRole('button', { name: '削除' }).click();
    await page.getByText('該当する検索結果はありません').waitFor();
    expect(await db.selectFrom('regular_reports').select('setting_no').where('store_id', '=', STORE).execute()).toHaveLength(0);
  });

  it('greys the regular rows of a removed store, without edit or delete', async () => {
    await db.insertInto('regular_reports').values({ store_id: STORE, setting_name: '撤去前の日報', file_name: 'daily', report_type: 3, regular_report: 1, data_interval: 10, start_time: new Date(), end_time: new Date(), output_format: 2, equipment_ids: [] }).execute();
    await db.updateTable('stores').set({ working_state: 2 }).where('store_id', '=', STORE).execute();
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, `/stores/${STORE}/reports?type=reqular`);
    const row = page.getByRole('row').filter({ hasText: '撤去前の日報' });
    await row.waitFor();
    expect(await row.getAttribute('aria-disabled')).toBe('true');
    expect(await row.getByRole('link').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'レポート作成' }).count()).toBe(0);
    await row.click({ force: true });
    expect(page.url()).toContain('type=reqular');
    await shot(page, 'reports-regular-removed');
  });
});
