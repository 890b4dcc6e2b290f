import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { toCompactDate } from '../../app/domain/japan-time';
import { storeUrl } from '../../app/domain/urls';
import { storeOfLogin } from '../fixtures/chain';
import { launchBrowser, login, newPage, screenshot } from '../support/browser';

// The states a user must not misread (issue 11): a removed store's last values, a silent
// sensor's last value, the graph area before its chart code has arrived, and the popup's one
// current temperature. (The 403 pages inside the layouts: accessibility.test.ts.)
const db = createDb(inject('databaseUrl'), 2);
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await db.destroy();
  await browser?.close();
});

/** Shown sensors of a store with their latest reading time, oldest first. */
async function sensorsByAge(storeId: string) {
  return db
    .selectFrom('sensors')
    .innerJoin('sensor_states as ss', (join) => join.onRef('ss.store_id', '=', 'sensors.store_id').onRef('ss.equipment_id', '=', 'sensors.equipment_id'))
    .select(['sensors.equipment_id', 'ss.last_measured_at'])
    .where('sensors.store_id', '=', storeId)
    .where('sensors.disp_flg', '=', 1)
    .where('ss.last_measured_at', 'is not', null)
    .orderBy('ss.last_measured_at')
    .execute();
}

const HOUR_MS = 3600_000;

describe('stale values', () => {
  it("a removed store's image view carries its 撤去 badge and marks every value with its age", async () => {
    const removed = await db.selectFrom('stores').select('store_id').where('working_state', '=', 2).orderBy('store_id').executeTakeFirstOrThrow();
    const sensors = await sensorsByAge(removed.store_id);
    expect(sensors.length).toBeGreaterThan(0);
    expect(Date.now() - sensors.at(-1)!.last_measured_at!.getTime()).toBeGreaterThan(HOUR_MS);
    const page = await newPage(browser);
    await login(page, 'admin');
    await page.goto(storeUrl.sensors(removed.store_id, 'image'));
    await expect(page.locator('header [data-working-state="2"]').textContent()).resolves.toBe('撤去');
    for (const { equipment_id } of sensors) {
      const circle = page.locator(`button[data-equipment-id="${equipment_id}"]`);
      await expect(circle.getByTestId('stale-reading').textContent()).resolves.toMatch(/^\d+(分|時間|日)前の値$/);
      await expect(circle.locator('[data-stale]').count()).resolves.toBe(1);
    }
    await screenshot(page, 'removed-store-image');
    // The list view and the diagram say the same.
    await page.goto(storeUrl.sensors(removed.store_id, 'list'));
    await expect(page.getByTestId('stale-reading').count()).resolves.toBe(sensors.length);
  });

  it("marks a silent sensor's value in a live store, and leaves the fresh ones unmarked", async () => {
    const { store_id: storeId } = await storeOfLogin(db, 'storeuser');
    const sensors = await sensorsByAge(storeId);
    const silent = sensors.filter((sensor) => Date.now() - sensor.last_measured_at!.getTime() >= HOUR_MS);
    const fresh = sensors.filter((sensor) => Date.now() - sensor.last_measured_at!.getTime() < 50 * 60_000);
    expect(fresh.length).toBeGreaterThan(0);
    const page = await newPage(browser);
    await login(page, 'storeuser');
    await page.goto(storeUrl.sensors(storeId, 'image'));
    await page.getByRole('list', { name: 'センサ' }).waitFor();
    await expect(page.getByTestId('stale-reading').count()).resolves.toBe(silent.length);
    for (const { equipment_id } of fresh) await expect(page.locator(`button[data-equipment-id="${equipment_id}"] [data-testid="stale-reading"]`).count()).resolves.toBe(0);
    if (silent.length > 0) {
      // The popup of a silent sensor says it too, beside the time of its last reading.
      await page.locator(`button[data-equipment-id="${silent[0].equipment_id}"]`).click();
      await expect(page.getByRole('dialog').getByTestId('stale-reading').count()).resolves.toBe(1);
    }
  });
});

describe('the graph before its chart code arrives', () => {
  it('shows the loading overlay from the first paint until the chart is drawn', async () => {
    const { store_id: storeId } = await storeOfLogin(db, 'storeuser');
    const [sensor] = await sensorsByAge(storeId);
    const page = await newPage(browser);
    await login(page, 'storeuser');
    // The chart's chunk arrives late, as on a slow phone line.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const chunkAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route('**/temperature-chart.client-*.js', async (route) => {
      asked();
      await held;
      await route.continue();
    });
    const url = storeUrl.graphs(storeId, { equipment_id: sensor.equipment_id, start_date: toCompactDate(new Date()) });
    // In the server's HTML already: the area is never blank while the page's scripts load.
    const html = await (await page.request.get(url)).text();
    expect(html).toMatch(/data-testid="graph-loading"/);
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await expect(page.getByTestId('graph-loading').isVisible()).resolves.toBe(true);
    // The page's scripts ran and it waits for the chart's chunk: the area still says it is loading.
    await chunkAsked;
    await expect(page.getByTestId('graph-loading').isVisible()).resolves.toBe(true);
    release();
    await page.getByTestId('graph-loading').waitFor({ state: 'detached' });
    await expect(page.getByRole('img', { name: /^温度グラフ \d{4}\/\d{2}\/\d{2}$/ }).count()).resolves.toBe(1);
  });
});

describe('the sensor popup', () => {
  it('shows one current temperature: the reading, with no second value on the sparkline', async () => {
    const { store_id: storeId } = await storeOfLogin(db, 'storeuser');
    const page = await newPage(browser);
    await login(page, 'storeuser');
    await page.goto(storeUrl.sensors(storeId, 'image'));
    await page.getByRole('list', { name: 'センサ' }).getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('svg[data-points]').waitFor();
    await expect(dialog.getByText(/最新/).count()).resolves.toBe(0);
    await expect(dialog.getByRole('img', { name: '本日の温度推移（10分ごと）' }).count()).resolves.toBe(1);
  });
});
