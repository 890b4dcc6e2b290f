import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { storeOfLogin } from '../fixtures/chain';
import { allowFailedLoads, launchBrowser, login, newPage, screenshot } from '../support/browser';

// The alert history of the demo chain: list, categories, the stop dialog with a comment, the
// graph link and the CSV, in a real browser against the production build.

let browser: Browser;
let db: Db;
beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 1);
});
afterAll(async () => {
  await browser?.close();
  await db?.destroy();
});

/** A demo store with an active, unstopped lower-limit alert (the 'ongoingLower' store). */
async function storeWithActiveAlert() {
  return db
    .selectFrom('alert_history as h')
    .innerJoin('sensors as s', (join) => join.onRef('s.store_id', '=', 'h.store_id').onRef('s.equipment_id', '=', 'h.equipment_id'))
    .select(['h.store_id', 'h.equipment_id', 'h.alert_history_id', 's.equipment_name'])
    .where('h.alert_id', '=', 'OE00000002')
    .where('h.recovered_at', 'is', null)
    .where('h.stopped_at', 'is', null)
    .orderBy('h.started_at', 'desc')
    .executeTakeFirstOrThrow();
}

describe('alert history', () => {
  it('stops an active alert through the dialog with a comment; the row then shows it stopped', async () => {
    const target = await storeWithActiveAlert();
    const page = await newPage(browser);
    await login(page, 'admin');
    await page.goto(`/stores/${target.store_id}/warning_histories`);
    await page.getByRole('heading', { name: '警報履歴' }).waitFor();
    // The default range is the last month up to today (Japan time).
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Tokyo' }).format(new Date());
    expect(await page.getByLabel('終了日').inputValue()).toBe(today);
    await page.getByText(/^全\d+件$/).waitFor();
    await screenshot(page, 'alert-history');

    const row = page.locator(`tr[data-history-id="${target.alert_history_id}"]`);
    await expect(row.textContent()).resolves.toContain('温度異常（下限超過）');
    await row.getByRole('button', { name: '停止' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('heading', { name: '警報を停止してもよろしいですか？' }).waitFor();
    await expect(dialog.textContent()).resolves.toContain(target.equipment_name);
    // キャンセル closes without stopping.
    await dialog.getByRole('button', { name: 'キャンセル' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await row.getByRole('button', { name: '停止' }).count()).toBe(1);

    await row.getByRole('button', { name: '停止' }).click();
    await dialog.getByLabel('対応コメント').fill('ケースの温度設定を確認し、霜取りを実施しました');
    await dialog.getByText('23 / 200').waitFor();
    await screenshot(page, 'alert-history-stop-dialog');
    await dialog.getByRole('button', { name: '停止' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('停止中').waitFor();
    await expect(row.textContent()).resolves.toContain('ケースの温度設定を確認し、霜取りを実施しました');
    await expect(row.textContent()).resolves.toContain('停止');
    expect(await row.getByRole('button', { name: '停止' }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.has('stop')).toBe(false);
    await screenshot(page, 'alert-history-stopped');

    const stored = await db.selectFrom('alert_history').select(['stopped_at', 'stop_comment', 'recovered_at']).where('alert_history_id', '=', target.alert_history_id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ stop_comment: 'ケースの温度設定を確認し、霜取りを実施しました', recovered_at: null });
    expect(stored.stopped_at).not.toBeNull();
  });

  it('filters by furniture category and sensor, and a temperature row opens the graph of its day', async () => {
    const target = await storeWithActiveAlert().catch(() => null);
    const storeId =
      target?.store_id ??
      (await db.selectFrom('alert_history').select('store_id').where('alert_id', '=', 'OE00000002').orderBy('started_at', 'desc').executeTakeFirstOrThrow()).store_id;
    const page = await newPage(browser);
    await login(page, 'admin');
    await page.goto(`/stores/${storeId}/warning_histories`);
    const menu = page.getByRole('navigation', { name: 'カテゴリ' });
    await expect(menu.getByRole('link', { name: 'すべて' }).getAttribute('aria-current')).resolves.toBe('page');

    // A temperature alert row: pick one and open its sensor from the menu.
    const row = page.locator('tbody tr', { hasText: /温度異常|温度超過/ }).first();
    const sensorName = (await row.locator('td').nth(1).textContent())!.trim();
    await menu.getByRole('link', { name: sensorName, exact: true }).click();
    await page.waitForURL(/equipment_id=\d+/);
    // The URL changes a moment before React draws the filtered page.
    await expect.poll(() => menu.getByRole('link', { name: sensorName, exact: true }).getAttribute('aria-current')).toBe('page');
    const names = await page.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(new Set(names.map((name) => name.trim()))).toEqual(new Set([sensorName]));
    await screenshot(page, 'alert-history-sensor');

    const first = page.locator('tbody tr', { hasText: /温度異常|温度超過/ }).first();
    const startedAt = (await first.locator('td').first().textContent())!.trim(); // YYYY/MM/DD HH:mm
    const equipmentId = new URL(page.url()).searchParams.get('equipment_id');
    await first.locator('td').nth(2).click();
    await page.waitForURL('**/temp_graphs?**');
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/stores/${storeId}/temp_graphs`);
    expect(url.searchParams.get('equipment_id')).toBe(equipmentId);
    expect(url.searchParams.get('start_date')).toBe(startedAt.slice(0, 10).replaceAll('/', ''));
  });

  it('shows the field error for a start after the end, and keeps a store user to their own store', async () => {
    allowFailedLoads(404); // another store's history goes to /not_found, which answers 404
    const page = await newPage(browser);
    await login(page, 'storeuser');
    const { store_id: storeId } = await storeOfLogin(db, 'storeuser');
    await page.goto(`/stores/${storeId}/warning_histories`);
    await page.getByLabel('開始日').fill('2026-11-20');
    await page.getByLabel('終了日').fill('2026-11-01');
    await page.getByRole('button', { name: '表示' }).click();
    await page.getByText('開始日は終了日以前の日付を指定してください').waitFor();
    await screenshot(page, 'alert-history-date-error');

    // Another store's history is not the store user's.
    const other = await db.selectFrom('stores').select('store_id').where('store_id', '!=', storeId).where('working_state', '=', 1).executeTakeFirstOrThrow();
    await page.goto(`/stores/${other.store_id}/warning_histories`);
    expect(new URL(page.url()).pathname).toBe('/not_found');
  });

  it('downloads the CSV with a BOM', async () => {
    const target = await db.selectFrom('alert_history').select('store_id').where('stop_comment', 'is not', null).executeTakeFirstOrThrow();
    const page = await newPage(browser);
    await login(page, 'admin');
    await page.goto(`/stores/${target.store_id}/warning_histories`);
    await page.setViewportSize({ width: 1024, height: 800 });
    await screenshot(page, 'alert-history-1024');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'CSVダウンロード' }).click()]);
    expect(download.suggestedFilename()).toBe('alert_history.csv');
    const chunks: Buffer[] = [];
    for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toBe('発生日時,センサ名,警報内容,温度,推定品温,下限温度,上限温度,状態,復旧日時,停止日時,停止者,対応コメント,確認日時,確認者,改善措置,確認メモ');
  });
});
