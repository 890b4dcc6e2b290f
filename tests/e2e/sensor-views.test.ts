import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { toCompactDate } from '../../app/domain/japan-time';
import { createStore, storeOfLogin } from '../fixtures/chain';
import { allowFailedLoads, launchBrowser, login, newPage, screenshot } from '../support/browser';

// The sensor image and list views on the demo chain: circles, the detail popup (side by the
// 300 px rule, backdrop close), the list's sort toggles, the empty state and access.
const db = createDb(inject('databaseUrl'), 2);
let browser: Browser;
let home: { storeId: string; storeName: string; shown: number };
let other: string;

beforeAll(async () => {
  browser = await launchBrowser();
  // The storeuser login's store (新宿西口店 of the demo) and one store it may not see.
  const row = await storeOfLogin(db, 'storeuser');
  const { n } = await db.selectFrom('sensors').select((eb) => eb.fn.countAll<number>().as('n')).where('store_id', '=', row.store_id).where('disp_flg', '=', 1).executeTakeFirstOrThrow();
  home = { storeId: row.store_id, storeName: row.store_name, shown: Number(n) };
  // A store none of the store user's groups is linked to (other tests add stores of their own).
  other = (
    await db
      .selectFrom('stores')
      .select('store_id')
      .where('store_id', 'not in', db.selectFrom('store_usergroups as sg').innerJoin('user_usergroups as ug', 'ug.usergroup_id', 'sg.usergroup_id').innerJoin('users as u', 'u.user_id', 'ug.user_id').select('sg.store_id').where('u.login_id', '=', 'storeuser'))
      .orderBy('store_id')
      .executeTakeFirstOrThrow()
  ).store_id;
  await createStore(db, 'E2E-EMPTY', { store_name: 'センサ未登録テスト店' });
});

afterAll(async () => {
  await db.deleteFrom('stores').where('store_id', '=', 'E2E-EMPTY').execute();
  await db.destroy();
  await browser?.close();
});

const circles = (page: Page) => page.getByRole('list', { name: 'センサ' }).getByRole('button');
const popup = (page: Page) => page.getByRole('dialog');
const sortLink = (page: Page, key: string) => page.locator(`thead a[data-sort-key="${key}"]`);

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not visible');
  return found;
}

describe('sensor image view', () => {
  it('shows the header, the legend and one circle per shown sensor', async () => {
    const page = await newPage(browser);
    await login(page, 'storeuser');
    await page.goto(`/stores/${home.storeId}/temp_managements_image`);
    await page.getByRole('heading', { name: /センサ一覧/ }).waitFor();
    await page.getByText(home.storeName, { exact: true }).first().waitFor();
    const legend = page.getByRole('list', { name: '温度帯の凡例' }).getByRole('listitem');
    expect(await legend.allTextContents()).toEqual(['冷凍-30〜0℃', '冷蔵0〜10℃', '常温10〜25℃', '加温25〜60℃']);
    expect(home.shown).toBeGreaterThan(0);
    await expect(circles(page).count()).resolves.toBe(home.shown);
    // Every circle shows a temperature (value with ℃, ERROR, DEF or --), its limits and its name.
    const first = circles(page).first();
    expect(await first.textContent()).toMatch(/(-?\d+\.\d℃|ERROR|DEF|--)/);
    expect(await page.getByRole('link', { name: 'イメージ' }).getAttribute('aria-current')).toBe('page');
    await screenshot(page, 'sensor-image-view');
  });

  it('opens the detail popup to the right when there is room, to the left otherwise, and closes it on the backdrop', async () => {
    const page = await newPage(browser, { width: 1366, height: 860 });
    await login(page, 'storeuser');
    await page.goto(`/stores/${home.storeId}/temp_managements_image`);
    const viewport = page.viewportSize()!;

    // The first circle sits far from the right edge: the popup opens on its right.
    const left = circles(page).first();
    const leftBox = await box(left);
    expect(viewport.width - (leftBox.x + leftBox.width)).toBeGreaterThan(300);
    await left.click();
    const dialog = popup(page);
    await dialog.waitFor();
    expect(await dialog.getAttribute('data-side')).toBe('right');
    expect((await box(dialog)).x).toBeGreaterThanOrEqual(leftBox.x + leftBox.width);
    await dialog.getByText('ステータス').waitFor();
    await dialog.getByText('ガードタイム').waitFor();
    await dialog.getByText('スヌーズ時間').waitFor();
    expect(await dialog.getByRole('img', { name: /^電波強度：/ }).count()).toBe(1);
    expect(await dialog.getByRole('img', { name: /^電池残量：/ }).count()).toBe(1);
    const graph = dialog.getByRole('link', { name: /温度グラフ/ });
    const equipmentId = await left.getAttribute('data-equipment-id');
    expect(await graph.getAttribute('href')).toBe(`/stores/${home.storeId}/temp_graphs?equipment_id=${equipmentId}&start_date=${toCompactDate(new Date())}`);
    // Today's alert count and sparkline arrive once the popup is open.
    await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid="today-alert-count"]')?.textContent ?? ''));
    expect(await dialog.locator('svg[data-points]').count()).toBe(1);
    await screenshot(page, 'sensor-popup-right');

    // A click on the backdrop closes it.
    await page.getByTestId('sensor-popup-backdrop').click({ position: { x: 10, y: viewport.height - 10 } });
    await expect(popup(page).count()).resolves.toBe(0);

    // The circle closest to the right edge leaves 300 px or less: the popup opens on its left.
    const boxes = await Promise.all((await circles(page).all()).map(async (circle) => ({ circle, box: await box(circle) })));
    const rightmost = boxes.reduce((a, b) => (b.box.x > a.box.x ? b : a));
    expect(viewport.width - (rightmost.box.x + rightmost.box.width)).toBeLessThanOrEqual(300);
    await rightmost.circle.click();
    await popup(page).waitFor();
    expect(await popup(page).getAttribute('data-side')).toBe('left');
    const leftPopup = await box(popup(page));
    expect(leftPopup.x + leftPopup.width).toBeLessThanOrEqual(rightmost.box.x);
    await screenshot(page, 'sensor-popup-left');
    await page.getByTestId('sensor-popup-backdrop').click({ position: { x: 10, y: viewport.height - 10 } });
    await expect(popup(page).count()).resolves.toBe(0);
  });

  it('follows the 300 px rule for the same sensor when the window narrows', async () => {
    const page = await newPage(browser, { width: 1366, height: 860 });
    await login(page, 'storeuser');
    await page.goto(`/stores/${home.storeId}/temp_managements_image`);
    const first = circles(page).first();
    // Room right of the first circle, measured in the page as the popup measures it (scrollbar excluded).
    const room = () => first.evaluate((el) => document.documentElement.clientWidth - el.getBoundingClientRect().right);
    const sides: string[] = [];
    for (const width of [1366, 900, 420]) {
      await page.setViewportSize({ width, height: 860 });
      await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => resolve(true))));
      const before = await room();
      await first.click();
      await popup(page).waitFor();
      const side = await popup(page).getAttribute('data-side');
      expect(side, `width ${width}, room ${before}`).toBe(before > 300 ? 'right' : 'left');
      sides.push(side!);
      if (width === 420) await screenshot(page, 'sensor-popup-narrow');
      await page.getByTestId('sensor-popup-backdrop').click({ position: { x: 5, y: 850 } });
      await expect(popup(page).count()).resolves.toBe(0);
    }
    // The same sensor opens right on a wide window and left on a narrow one.
    expect(sides[0]).toBe('right');
    expect(sides[2]).toBe('left');
  });
});

describe('sensor list view', () => {
  it('toggles to the list and sorts each column ascending then descending', async () => {
    const page = await newPage(browser);
    await login(page, 'storeuser');
    await page.goto(`/stores/${home.storeId}/temp_managements_image`);
    await page.getByRole('link', { name: 'リスト' }).click();
    await page.waitForURL(`**/stores/${home.storeId}/temp_managements_list`);
    const rows = page.locator('tbody tr');
    await rows.first().waitFor();
    await expect(rows.count()).resolves.toBe(home.shown);

    const nameKeys = async () =>
      (await page.locator('tbody tr td:nth-child(2) button').allTextContents()).map((text) => text.slice(0, 2));
    await sortLink(page, 'name').click();
    await page.waitForURL('**/temp_managements_list?sort=name&order=asc');
    await page.locator('th[aria-sort="ascending"]').waitFor();
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toContain('センサ名');
    const ascending = await nameKeys();
    expect(ascending).toEqual([...ascending].sort());
    await sortLink(page, 'name').click();
    await page.waitForURL('**/temp_managements_list?sort=name&order=desc');
    await page.locator('th[aria-sort="descending"]').waitFor();
    const descending = await nameKeys();
    expect(descending).toEqual([...ascending].sort().reverse());
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toContain('センサ名');

    await sortLink(page, 'kind').click();
    await page.waitForURL('**/temp_managements_list?sort=kind&order=asc');
    await sortLink(page, 'alert').click();
    await page.waitForURL('**/temp_managements_list?sort=alert&order=asc');
    await page.locator('th[aria-sort="ascending"] a[data-sort-key="alert"]').waitFor();
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toContain('警報');
    await screenshot(page, 'sensor-list-view');

    // A name opens the same popup.
    await page.locator('tbody tr td:nth-child(2) button').first().click();
    await popup(page).waitFor();
    await page.getByTestId('sensor-popup-backdrop').click({ position: { x: 10, y: 840 } });
    await expect(popup(page).count()).resolves.toBe(0);
  });
});

describe('empty state and access', () => {
  it('says that no sensor is registered for a store without sensors', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    for (const view of ['image', 'list']) {
      await page.goto(`/stores/E2E-EMPTY/temp_managements_${view}`);
      await page.getByText('センサが登録されていません').waitFor();
    }
    await screenshot(page, 'sensor-views-empty');
  });

  it("sends a store user to /not_found for another store's views", async () => {
    allowFailedLoads(404); // /not_found answers 404
    const page = await newPage(browser);
    await login(page, 'storeuser');
    for (const view of ['image', 'list']) {
      await page.goto(`/stores/${other}/temp_managements_${view}`);
      expect(new URL(page.url()).pathname).toBe('/not_found');
    }
  });
});
