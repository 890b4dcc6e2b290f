import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../app/db/db.server';
import { toCompactDate } from '../../app/domain/japan-time';
import { storeUrl } from '../../app/domain/urls';
import { createOneDayAlertStop } from '../fixtures/chain';
import { screenshot } from '../support/browser';
import { signedInPages } from '../support/signed-in-pages';

// Issue 33: what users tripped over in the field, each at the width where it was found.

const pages = signedInPages();
const pageAt = (width: number, height: number, loginId = 'admin') => pages.pageAt(width, height, loginId);
let db: Db;
beforeAll(() => {
  db = pages.db();
});

const isOpen = (page: Page, label: string) =>
  page.locator('header details').filter({ has: page.locator(`summary[aria-label="${label}"]`) }).evaluate((element) => (element as HTMLDetailsElement).open);

describe('header menus (item 1)', () => {
  it('close once a link in them is followed, on a desktop and in the phone メニュー', async () => {
    for (const [width, height, label] of [[1366, 900, 'マスタ管理'], [390, 844, 'メニュー']] as const) {
      const page = await pageAt(width, height);
      await page.goto('/dashboard');
      await page.locator('h1').first().waitFor();
      await page.locator(`header summary[aria-label="${label}"]`).click();
      await expect.poll(() => isOpen(page, label)).toBe(true);
      const menu = page.locator('header details').filter({ has: page.locator(`summary[aria-label="${label}"]`) });
      const link = menu.getByRole('link', { name: 'ユーザー登録' });
      await link.click();
      await page.waitForURL(/\/user\/master/);
      await expect.poll(() => isOpen(page, label)).toBe(false);
      await screenshot(page, `field-menu-closed-${width}`);
      // A link to the page already shown closes the menu too.
      await page.locator(`header summary[aria-label="${label}"]`).click();
      await expect.poll(() => isOpen(page, label)).toBe(true);
      await menu.getByRole('link', { name: 'ユーザー登録' }).click();
      await expect.poll(() => isOpen(page, label)).toBe(false);
    }
  });
});

describe('store creation (item 7)', () => {
  it('does not offer システム管理者グループ (or any staff group) as the store\'s user group', async () => {
    const page = await pageAt(1366, 900);
    await page.goto('/stores/store_infos/create');
    const select = page.getByLabel('ユーザーグループ 1');
    await select.waitFor();
    const offered = await select.locator('option').allInnerTexts();
    await screenshot(page, 'field-store-create-1366');
    expect(offered.length).toBeGreaterThan(1);
    expect(offered).not.toContain('システム管理者グループ');
  });
});

describe('phone polish (item 8)', () => {
  it('opens the alert-stop delete dialog with the focus on いいえ, so Enter deletes nothing (390 px)', async () => {
    const { store_id: storeId } = await db.selectFrom('stores').select('store_id').orderBy('store_id').executeTakeFirstOrThrow();
    const today = toCompactDate(new Date());
    const scheduleId = await createOneDayAlertStop(db, storeId, today);
    try {
      const page = await pageAt(390, 844);
      await page.goto(storeUrl.alertStops(storeId, today, today, { delete: scheduleId }));
      const dialog = page.getByRole('alertdialog', { name: '削除しますか？' });
      await dialog.waitFor();
      await expect.poll(() => dialog.getByRole('link', { name: 'いいえ' }).evaluate((element) => element === document.activeElement)).toBe(true);
      await screenshot(page, 'field-alert-stop-delete-390');
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      expect(await db.selectFrom('alert_schedules').select('schedule_id').where('schedule_id', '=', scheduleId).execute()).toHaveLength(1);
    } finally {
      await db.deleteFrom('alert_schedules').where('schedule_id', '=', scheduleId).execute();
    }
  });
});
