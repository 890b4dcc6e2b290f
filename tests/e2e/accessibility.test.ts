import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { toCompactDate } from '../../app/domain/japan-time';
import { appUrl, storeUrl } from '../../app/domain/urls';
import { storeOfLogin } from '../fixtures/chain';
import { type AxeViolation, axeViolations, describeViolations } from '../support/axe';
import { allowFailedLoads, launchBrowser, login, newPage } from '../support/browser';

// The accessibility gate (issue 11): every page state of the demo, as the administrator and as
// a store user, at desktop (1366) and phone (390) width (the alert-stop screens at 768 too), has
// no serious or critical axe-core violation (WCAG 2.2 A and AA). The counts per page are
// printed; one violation fails the test.
const db = createDb(inject('databaseUrl'), 2);
let browser: Browser;
let home: { storeId: string; equipmentId: number };
let removedStoreId: string;

const VIEWPORTS = { desktop: { width: 1366, height: 900 }, tablet: { width: 768, height: 1024 }, phone: { width: 390, height: 844 } } as const;

interface PageState {
  name: string;
  url: () => string;
  /** What to do once the page is drawn (open a popup, wait for the chart). */
  then?: (page: Page) => Promise<void>;
  /** Statuses the page answers on purpose (a 403, the 404 page). */
  status?: number;
}

const today = () => toCompactDate(new Date());

const chartDrawn = (page: Page) => page.locator('canvas').first().waitFor();

const STORE_PAGES: PageState[] = [
  { name: 'dashboard', url: () => appUrl.dashboard },
  { name: 'sensor image', url: () => storeUrl.sensors(home.storeId, 'image') },
  { name: 'sensor popup', url: () => storeUrl.sensors(home.storeId, 'image'), then: (page) => openSensorPopup(page) },
  { name: 'sensor list', url: () => storeUrl.sensors(home.storeId, 'list') },
  // On the password page: an open menu covering the dashboard's page links would count them as too small.
  { name: 'header menu open', url: () => appUrl.passwordEdit, then: (page) => openHeaderMenu(page) },
  { name: 'graph', url: () => storeUrl.graphs(home.storeId, { equipment_id: home.equipmentId, start_date: today() }), then: chartDrawn },
  { name: 'alert history', url: () => storeUrl.alertHistory(home.storeId) },
  { name: 'diagram', url: () => storeUrl.diagram(home.storeId) },
  { name: 'haccp record', url: () => storeUrl.haccp(home.storeId) },
  { name: 'reports', url: () => storeUrl.reports(home.storeId) },
  { name: 'password change', url: () => appUrl.passwordEdit },
  { name: 'not found', url: () => appUrl.notFound, status: 404 },
];

/** The administrator's screens beyond a store user's; at phone width the first five (the list and form kits are the same on every master). */
const ADMIN_ONLY_PAGES: PageState[] = [
  { name: 'removed store image', url: () => storeUrl.sensors(removedStoreId, 'image') },
  { name: 'sensor settings', url: () => storeUrl.sensorSettings(home.storeId) },
  { name: 'sensor edit', url: () => storeUrl.sensorEdit(home.storeId, home.equipmentId) },
  { name: 'alert stops', url: () => storeUrl.alertStops(home.storeId, today(), today()) },
  { name: 'diagram edit', url: () => storeUrl.diagramEdit(home.storeId) },
  { name: 'store management', url: () => storeUrl.management(home.storeId) },
  { name: 'store edit', url: () => storeUrl.infoEdit(home.storeId) },
  { name: 'store create', url: () => appUrl.storeCreate },
  { name: 'user master', url: () => appUrl.userMaster },
  { name: 'user create', url: () => appUrl.userCreate },
  { name: 'usergroup master', url: () => appUrl.usergroupMaster },
  { name: 'company master', url: () => appUrl.companyMaster },
  { name: 'storegroup master', url: () => appUrl.storegroupMaster },
  { name: 'gateways', url: () => appUrl.gatewayList },
  { name: 'audit log', url: () => appUrl.auditLog },
  { name: 'notice create', url: () => appUrl.noticeCreate },
];

/** The alert-stop calendar and editor (issue 33 item 5): their grid and day marks are laid out anew below desktop width, so the gate sees them at 390 and 768 too. */
const ALERT_STOP_PAGES: PageState[] = [
  { name: 'alert stop calendar', url: () => storeUrl.sensorSettings(home.storeId, { tab: 'alert-stop' }) },
  { name: 'alert stop editor', url: () => storeUrl.alertStopEdit(home.storeId, today(), today(), null) },
  {
    name: 'alert stop editor per sensor',
    url: () => storeUrl.alertStopEdit(home.storeId, today(), today(), null),
    then: async (page) => {
      await page.waitForLoadState('networkidle');
      await page.getByLabel('センサ別').check();
    },
  },
];

const PAGES = {
  admin: { desktop: [...STORE_PAGES, ...ADMIN_ONLY_PAGES, ...ALERT_STOP_PAGES], tablet: ALERT_STOP_PAGES, phone: [...STORE_PAGES, ...ADMIN_ONLY_PAGES.slice(0, 5), ...ALERT_STOP_PAGES] },
  storeuser: {
    desktop: [
      ...STORE_PAGES,
      // Refusals render inside the layouts (header, and on a store page the store sidebar).
      { name: 'sensor settings (403)', url: () => storeUrl.sensorSettings(home.storeId), status: 403, then: expectLayout(true) },
      { name: 'store edit (403)', url: () => storeUrl.infoEdit(home.storeId), status: 403, then: expectLayout(true) },
      { name: 'user master (403)', url: () => appUrl.userMaster, status: 403, then: expectLayout(false) },
    ],
    // The alert-stop screens are not a store user's (storeSettings).
    tablet: [],
    phone: STORE_PAGES,
  },
} satisfies Record<string, Record<keyof typeof VIEWPORTS, PageState[]>>;

function expectLayout(storeSidebar: boolean) {
  return async (page: Page) => {
    await expect(page.getByRole('banner').count()).resolves.toBe(1);
    await expect(page.getByText(/この画面を表示する権限がありません/).count()).resolves.toBe(1);
    await expect(page.getByRole('complementary', { name: '店舗メニュー' }).count()).resolves.toBe(storeSidebar ? 1 : 0);
  };
}

/** The header's last menu opened: the account on a desktop, メニュー on a phone. */
async function openHeaderMenu(page: Page): Promise<void> {
  await page.locator('header summary:visible').last().click();
  await page.locator('header details[open] [role=group]').waitFor();
}

async function openSensorPopup(page: Page): Promise<void> {
  await page.getByRole('list', { name: 'センサ' }).getByRole('button').first().click();
  await page.getByRole('dialog').waitFor();
}

beforeAll(async () => {
  browser = await launchBrowser();
  const store = await storeOfLogin(db, 'storeuser');
  const sensor = await db.selectFrom('sensors').select('equipment_id').where('store_id', '=', store.store_id).where('disp_flg', '=', 1).orderBy('equipment_id').executeTakeFirstOrThrow();
  home = { storeId: store.store_id, equipmentId: sensor.equipment_id };
  removedStoreId = (await db.selectFrom('stores').select('store_id').where('working_state', '=', 2).orderBy('store_id').executeTakeFirstOrThrow()).store_id;
});

afterAll(async () => {
  await db.destroy();
  await browser?.close();
});

describe('skip link', () => {
  it('is the first Tab stop and moves focus past the header to the page', async () => {
    const page = await newPage(browser);
    await login(page, 'storeuser');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: '本文へ移動' });
    await expect(skip.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await expect(skip.isVisible()).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('main-content');
    // The next Tab lands inside the page, not on the header's menus.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => Boolean(document.activeElement?.closest('#main-content')))).resolves.toBe(true);
    await page.context().close();
  });
});

/** Visits one state with the walk's signed-in page and answers its violations, printing one line. */
async function audit(page: Page, loginId: string, viewport: keyof typeof VIEWPORTS, state: PageState): Promise<AxeViolation[]> {
  const started = performance.now();
  const response = await page.goto(state.url());
  expect(response?.status(), state.name).toBe(state.status ?? 200);
  await page.locator('h1').first().waitFor();
  await state.then?.(page);
  const violations = await axeViolations(page);
  const counts = violations.map((violation) => `${violation.id} ${violation.count}`).join(', ');
  const ms = Math.round(performance.now() - started);
  console.log(`[axe] ${loginId} ${viewport} ${state.name}: ${violations.length === 0 ? '0 serious/critical' : counts} (${ms} ms)`);
  return violations;
}

// One test per page state, so that a page slow under load (CI runs three projects side by side)
// has its own timeout and retry instead of sharing one with the whole walk.
for (const [loginId, role] of [['admin', 'as the administrator'], ['storeuser', 'as a store user']] as const) {
  for (const viewport of ['desktop', 'tablet', 'phone'] as const) {
    if (PAGES[loginId][viewport].length === 0) continue;
    describe(`axe-core: no serious or critical violation ${role}, ${viewport}`, () => {
      let page: Page;
      beforeAll(async () => {
        page = await newPage(browser, VIEWPORTS[viewport]);
        await login(page, loginId);
      });
      beforeEach(() => allowFailedLoads(403, 404));
      afterAll(async () => page?.context().close());
      for (const state of PAGES[loginId][viewport]) {
        it(state.name, async () => {
          const violations = await audit(page, loginId, viewport, state);
          expect(describeViolations(violations)).toBe('');
        });
      }
    });
  }
}
