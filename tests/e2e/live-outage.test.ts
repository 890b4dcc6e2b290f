import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { formatDateTime } from '../../app/domain/japan-time';
import { TEST_PASSWORD } from '../fixtures/chain';
import { allowFailedLoads, allowPageProblems, launchBrowser, login, newPage, screenshot } from '../support/browser';
import { minuteAgo, postReading } from '../support/gateway-api';
import { createLiveStore } from '../support/live-store';

// Issue 10, point 6: a live screen whose refresh fails keeps its last data with a "not updated
// since HH:mm" mark, retries, and recovers by itself without a reload. The server "fails" for a
// minute of the page's clock (Playwright's fake clock): every data request of the page is
// answered 500 meanwhile, while a reading arrives and its change event asks for a refresh.
const STORE = 'LIVEOUT1';
const SERIAL = 'AA:BB:CC:DD:EE:73';
const db = createDb(inject('databaseUrl'), 1);
const base = inject('baseUrl');
let browser: Browser;
let token: string;

beforeAll(async () => {
  token = await createLiveStore(db, base, { storeId: STORE, storeName: '障害耐性店', serialNo: SERIAL, sensorName: '障害テスト冷蔵ケース', viewer: 'outage-viewer', pin: '747474' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await db.destroy();
});

/** Remix's data requests (single fetch: the page's path with `.data`). */
const isDataRequest = (url: URL) => url.pathname.endsWith('.data');

/** Makes every data request of the page fail with a 500; the number of requests refused so far. */
async function failDataRequests(page: Page): Promise<() => number> {
  let refused = 0;
  await page.route(isDataRequest, (route) => {
    refused += 1;
    return route.fulfill({ status: 500, contentType: 'text/plain', body: 'the database is down' });
  });
  return () => refused;
}

/** Moves the page's clock on by `ms` in 5 s steps, letting each step's requests finish. */
async function passTime(page: Page, ms: number, until?: () => Promise<boolean>): Promise<void> {
  for (let passed = 0; passed < ms; passed += 5_000) {
    await page.clock.runFor(5_000);
    await page.waitForTimeout(300);
    if (until && (await until())) return;
  }
}

/**
 * What the browser logs of the refused requests: each failed load, and Remix saying it cannot
 * decode the answer (our 500 is plain text, as a proxy's error page would be, not Remix's own).
 */
function allowOutageNoise(): void {
  allowFailedLoads(500);
  allowPageProblems(/^console error on \S+: SyntaxError\b/);
}

const shows = (page: Page, text: string) => page.getByText(text, { exact: true }).count();

describe('live screens survive a failed refresh', () => {
  it('keeps the sensor view with a "not updated since" mark for a minute of failures, then recovers without a reload', async () => {
    allowOutageNoise();
    const page = await newPage(browser);
    // The page's clock starts at the top of the current minute and runs on from there: the data
    // is loaded within that minute, which the mark must name.
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    await page.clock.install({ time: minute });
    await login(page, 'outage-viewer', TEST_PASSWORD);
    const events = page.waitForResponse((response) => response.url().includes('/resources/events'));
    await page.goto(`/stores/${STORE}/temp_managements_image`);
    await events;
    expect(await shows(page, '4.0℃')).toBe(1);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    const refused = await failDataRequests(page);
    // A reading arrives: its change event asks for a refresh, which fails.
    expect((await postReading(base, token, SERIAL, minuteAgo(5), 12.3)).accepted).toBe(1);
    const mark = page.getByRole('status').filter({ hasText: '以降更新できていません' });
    await mark.waitFor({ timeout: 10_000 });
    expect(await mark.textContent()).toBe(`${formatDateTime(new Date(minute)).slice(11)} 以降更新できていません`);

    // A minute of failures: retried several times, the last data stays, header and sidebar too.
    await passTime(page, 60_000);
    expect(refused(), 'refreshes tried during the failing minute').toBeGreaterThanOrEqual(4);
    expect(await shows(page, '4.0℃')).toBe(1);
    expect(await shows(page, '12.3℃')).toBe(0);
    expect(await mark.count()).toBe(1);
    expect(await page.getByRole('complementary', { name: '店舗メニュー' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'センサ一覧' }).count()).toBe(1);
    await screenshot(page, 'live-outage-sensor-view');

    // The server is back: the next retry brings the new reading and the mark goes.
    await page.unroute(isDataRequest);
    await passTime(page, 90_000, async () => (await shows(page, '12.3℃')) === 1);
    expect(await shows(page, '12.3℃')).toBe(1);
    expect(await mark.count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), 'the page was not reloaded').toBe(true);
    await screenshot(page, 'live-outage-recovered');
  });

  it('shows a failing store page inside the header and the store sidebar, and loads it again on request', async () => {
    allowOutageNoise();
    const page = await newPage(browser);
    await login(page, 'outage-viewer', TEST_PASSWORD);
    await page.goto(`/stores/${STORE}/temp_managements_image`);
    await page.getByRole('heading', { name: 'センサ一覧' }).waitFor();
    await failDataRequests(page);
    await page.getByRole('complementary', { name: '店舗メニュー' }).getByRole('link', { name: '警報履歴' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'エラーが発生しました' });
    await failure.waitFor();
    expect(await page.getByRole('heading', { name: '警報履歴' }).count()).toBe(1);
    expect(await page.getByRole('complementary', { name: '店舗メニュー' }).count()).toBe(1);
    expect(await page.locator('header').getByText('On-Reco').count()).toBeGreaterThan(0);
    await screenshot(page, 'live-outage-page-error');

    await page.unroute(isDataRequest);
    await page.getByRole('button', { name: '再読み込み' }).click();
    await page.getByRole('table').waitFor();
    expect(await failure.count()).toBe(0);
  });
});
