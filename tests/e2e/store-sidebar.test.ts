import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, login, newPage, screenshot } from '../support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const GENERAL = ['温度管理', '警報履歴', '温度グラフ', 'レポート', 'HACCP記録', 'センサ配置図'];

/** Signs in and opens the first store of the dashboard, as a person would: a click on its row. */
async function openFirstStore(page: Page, loginId: string) {
  await login(page, loginId);
  await page.locator('tbody tr').first().click();
  await page.waitForURL('**/temp_managements_image');
  await page.waitForLoadState('networkidle');
}

const sidebar = (page: Page) => page.getByRole('complementary', { name: '店舗メニュー' });
const sidebarWidth = async (page: Page) => (await sidebar(page).boundingBox())?.width;
/** A link's label as drawn: folded, a 10 px caption under the icon (issue 33: unlabeled rail icons); open, 14 px beside it. */
const labelSize = async (page: Page, label: string) => {
  const text = sidebar(page).getByRole('link', { name: label }).getByText(label, { exact: true });
  const box = await text.boundingBox();
  return box && box.width > 1 ? text.evaluate((element) => parseFloat(getComputedStyle(element).fontSize)) : 0;
};
const labelShown = async (page: Page, label: string) => (await labelSize(page, label)) > 0;
const linkNames = (page: Page, section: string) => sidebar(page).getByRole('navigation', { name: section }).getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('title')));

describe('store sidebar', () => {
  const settings = {
    admin: ['設定', '店舗管理'],
    maintenance: ['設定', '店舗管理'],
    casemanager: ['設定'],
    areamanager: ['設定'],
    storeuser: [],
  };
  for (const [loginId, expected] of Object.entries(settings)) {
    it(`shows ${loginId} the store's pages and the settings of the role table`, async () => {
      const page = await newPage(browser);
      await openFirstStore(page, loginId);
      // Polled: a client navigation changes the URL before the store's layout has rendered, and on
      // a loaded machine the sidebar can come after the network is idle.
      await expect.poll(() => linkNames(page, '一般')).toEqual(GENERAL);
      const settingsSection = sidebar(page).getByRole('navigation', { name: '設定' });
      if (expected.length === 0) expect(await settingsSection.count()).toBe(0);
      else expect(await linkNames(page, '設定')).toEqual(expected);
      // The page open is marked; the image view is the 温度管理 entry.
      const current = sidebar(page).getByRole('link', { name: '温度管理' });
      expect(await current.getAttribute('aria-current')).toBe('page');
      await screenshot(page, `store-sidebar-${loginId}`);
    });
  }

  it('folds by itself at 1024 px, opens on demand and remembers the choice', async () => {
    const page = await newPage(browser, { width: 1024, height: 768 });
    await openFirstStore(page, 'admin');
    expect(await sidebarWidth(page)).toBe(64);
    expect(await labelSize(page, '温度グラフ')).toBe(10);
    await screenshot(page, 'store-sidebar-folded');

    await page.getByRole('button', { name: 'サイドバーの開閉' }).click();
    await expect.poll(() => sidebarWidth(page)).toBe(192);
    expect(await labelSize(page, '温度グラフ')).toBe(14);
    await screenshot(page, 'store-sidebar-opened');

    // Remembered across pages and reloads.
    await sidebar(page).getByRole('link', { name: '警報履歴' }).click();
    await page.waitForURL('**/warning_histories');
    await page.reload();
    await page.waitForLoadState('networkidle');
    await expect.poll(() => sidebarWidth(page)).toBe(192);

    await page.getByRole('button', { name: 'サイドバーの開閉' }).click();
    await expect.poll(() => sidebarWidth(page)).toBe(64);
  });

  it('stays open on a wide window', async () => {
    const page = await newPage(browser, { width: 1280, height: 800 });
    await openFirstStore(page, 'areamanager');
    expect(await sidebarWidth(page)).toBe(192);
    expect(await labelShown(page, '温度グラフ')).toBe(true);
  });
});
