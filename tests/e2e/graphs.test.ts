import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { japanParts, toCompactDate } from '../../app/domain/japan-time';
import { allowPageProblems, launchBrowser, login, newContext, newPage, screenshot as fullScreenshot } from '../support/browser';

// The temperature graph page on the demo chain: the equipment_id link pre-checks its sensor, a
// second panel comes and a third does not, the units switch, the CSV downloads and a click on a
// point of a sensor that takes comments opens the comment dialog.

let browser: Browser;
let target: { storeId: string; equipmentId: number; name: string; sensors: number };
const db = () => createDb(inject('databaseUrl'), 1);

beforeAll(async () => {
  browser = await launchBrowser();
  const conn = db();
  try {
    // A displayed sensor that takes comments, with readings in the last hours, in a store with several sensors.
    const { rows } = await sql<{ store_id: string; equipment_id: number; equipment_name: string; sensors: number }>`
      select s.store_id, s.equipment_id, s.equipment_name, (select count(*)::int from sensors o where o.store_id = s.store_id and o.disp_flg = 1) as sensors
      from sensors s join sensor_states ss using (store_id, equipment_id)
      where s.disp_flg = 1 and s.comment_required = 1 and ss.last_measured_at > now() - interval '30 minutes' and ss.last_temperature is not null
      order by sensors desc, s.store_id, s.equipment_id limit 1`.execute(conn);
    if (!rows[0]) throw new Error('the demo chain has no sensor that takes comments');
    target = { storeId: rows[0].store_id, equipmentId: rows[0].equipment_id, name: rows[0].equipment_name, sensors: rows[0].sensors };
  } finally {
    await conn.destroy();
  }
});
afterAll(() => browser?.close());

/** The day whose chart is drawn and the horizontal place (0 … 1) of a time with readings: a few hours ago. */
function dayWithReadings(): { date: string; fraction: number } {
  const now = new Date();
  const hour = japanParts(now).hour;
  if (hour >= 3) return { date: toCompactDate(now), fraction: (hour - 2) / 24 };
  return { date: toCompactDate(new Date(now.getTime() - 86_400_000)), fraction: 0.8 };
}

async function chartReady(page: Page) {
  await page.getByTestId('graph-loading').first().waitFor({ state: 'detached' });
  await page.locator('[data-testid="graph-panel"] canvas').first().waitFor();
}

const panels = (page: Page) => page.getByTestId('graph-panel');

/** Two frames painted: the charts' resize (a ResizeObserver, before a paint) and their drawing are done. */
async function framesDrawn(page: Page) {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** From the top, so the sticky header is drawn where it belongs in the full-page picture. */
async function screenshot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await fullScreenshot(page, name);
}

describe('temperature graphs', () => {
  it('opens with the linked sensor checked, adds one panel and ignores a third, switches units', async () => {
    // Checking the boxes quickly starts a navigation per box, each interrupting the last: Remix's
    // single fetch logs the aborted response body it was decoding (console.error in its
    // single-fetch.js) though nothing failed. The newest navigation's result is checked below.
    allowPageProblems(/^console error on .*AbortError/);
    const page = await newPage(browser, { width: 1440, height: 900 });
    await login(page, 'admin');
    const { date } = dayWithReadings();
    await page.goto(`/stores/${target.storeId}/temp_graphs?equipment_id=${target.equipmentId}&start_date=${date}`);
    await chartReady(page);
    const first = panels(page).first();
    await expect(first.getByRole('checkbox', { name: new RegExp(target.name) }).isChecked()).resolves.toBe(true);
    const checked = await first.getByRole('checkbox', { checked: true }).count();
    expect(checked).toBe(1);
    await expect(first.getByTestId('graph-period').textContent()).resolves.toBe(`${date.slice(0, 4)}/${date.slice(4, 6)}/${date.slice(6, 8)}`);
    // One sensor: its limits are drawn (the legend says so).
    await first.getByText('上限・下限').waitFor();
    await screenshot(page, 'graphs-day-one-sensor');

    await page.getByRole('link', { name: 'グラフを追加' }).click();
    await panels(page).nth(1).waitFor();
    await expect(panels(page).count()).resolves.toBe(2);
    expect(new URL(page.url()).searchParams.get('p2_unit')).toBe('day');
    // The first panel has no delete button, the second has one.
    await expect(first.getByRole('link', { name: 'グラフを削除' }).count()).resolves.toBe(0);
    await expect(panels(page).nth(1).getByRole('link', { name: 'グラフを削除' }).count()).resolves.toBe(1);
    // At the limit the control is a plain button outside any form: a click cannot navigate.
    const atLimit = page.getByRole('button', { name: 'グラフを追加' });
    await expect(atLimit.evaluate((button: HTMLButtonElement) => button.type === 'button' && button.closest('form') === null)).resolves.toBe(true);
    const before = page.url();
    await atLimit.click();
    expect(page.url()).toBe(before);
    await expect(panels(page).count()).resolves.toBe(2);

    const second = panels(page).nth(1);
    await second.getByRole('link', { name: '週', exact: true }).click();
    await second.getByTestId('graph-period').getByText('〜', { exact: false }).waitFor();
    // Every sensor of the store in the second panel: several lines, no threshold band.
    for (const box of await second.getByRole('checkbox').all()) if (!(await box.isChecked())) await box.check();
    await page.waitForURL((url) => (url.searchParams.get('p2_equipment_id') ?? '').split(',').length === target.sensors);
    await chartReady(page);
    await expect(second.getByText('上限・下限').count()).resolves.toBe(0);
    await framesDrawn(page);
    await screenshot(page, 'graphs-week-all-sensors');
    await second.getByRole('link', { name: '月', exact: true }).click();
    await second.getByTestId('graph-period').getByText(/^\d{4}\/\d{2}$/).waitFor();
    await chartReady(page);
    // The first panel kept its sensor and unit, the second its sensors.
    const url = new URL(page.url());
    expect(url.searchParams.get('equipment_id')).toBe(String(target.equipmentId));
    expect(url.searchParams.get('unit')).toBe('day');
    expect(url.searchParams.get('p2_equipment_id')?.split(',')).toHaveLength(target.sensors);
    await framesDrawn(page);
    await screenshot(page, 'graphs-two-panels-month');

    await second.getByRole('link', { name: 'グラフを削除' }).click();
    await second.waitFor({ state: 'detached' });
    await expect(panels(page).count()).resolves.toBe(1);
  });

  it('downloads the CSV of the panel', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    const { date } = dayWithReadings();
    await page.goto(`/stores/${target.storeId}/temp_graphs?equipment_id=${target.equipmentId}&start_date=${date}`);
    await chartReady(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('graph-csv').first().click()]);
    expect(download.suggestedFilename()).toBe('equipments_measurement.csv');
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('センサID,センサ名,計測日時,温度,電池残量,電波強度,コメント');
    expect(lines.length).toBeGreaterThan(60);
    expect(lines[1]).toMatch(new RegExp(`^${target.equipmentId},.*,${date.slice(0, 4)}/${date.slice(4, 6)}/${date.slice(6, 8)} \\d{2}:\\d{2}:\\d{2},`));
  });

  it('opens the comment dialog on a point of a sensor that takes comments and saves the comment', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    const { date, fraction } = dayWithReadings();
    await page.goto(`/stores/${target.storeId}/temp_graphs?equipment_id=${target.equipmentId}&start_date=${date}`);
    await chartReady(page);
    const canvas = panels(page).first().locator('canvas');
    const box = (await canvas.boundingBox())!;
    // The line's height is not known here: walk down one column until the pointer says "clickable".
    const x = box.x + 50 + (box.width - 60) * fraction;
    let found = false;
    for (let y = box.y + 5; y < box.y + box.height - 20; y += 4) {
      await page.mouse.move(x, y);
      if ((await canvas.evaluate((el) => el.style.cursor)) === 'pointer') {
        await page.mouse.click(x, y);
        found = true;
        break;
      }
    }
    expect(found).toBe(true);
    const dialog = page.getByRole('dialog', { name: 'コメント登録' });
    await dialog.waitFor();
    await dialog.getByLabel('コメント').fill('扉の閉め忘れを確認');
    await screenshot(page, 'graphs-comment-dialog');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.waitFor({ state: 'detached' });
    const conn = db();
    try {
      const saved = await conn.selectFrom('measurement_comments').select(['comment']).where('equipment_id', '=', target.equipmentId).execute();
      expect(saved.map((row) => row.comment)).toContain('扉の閉め忘れを確認');
    } finally {
      await conn.destroy();
    }
    await framesDrawn(page);
    await screenshot(page, 'graphs-commented');
  });

  it('shades a freezer’s defrost ranges and the store’s alert-stop windows', async () => {
    // A sensor with defrost ranges in a store without alert stops: the alert-stop window is made
    // here, so the shading is seen to come with it (and not from whatever the demo chain planned).
    const conn = db();
    const { date } = dayWithReadings();
    const day = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`;
    let sensor: { store_id: string; equipment_id: number } | undefined;
    try {
      const { rows } = await sql<{ store_id: string; equipment_id: number }>`
        select s.store_id, s.equipment_id from sensors s
        where s.disp_flg = 1 and jsonb_array_length(s.def_time) > 0
          and not exists (select 1 from alert_schedules a where a.store_id = s.store_id)
        order by s.store_id, s.equipment_id limit 1`.execute(conn);
      sensor = rows[0];
      if (!sensor) throw new Error('the demo chain has no sensor with defrost ranges in a store without alert stops');
      const page = await newPage(browser, { width: 1440, height: 900 });
      await login(page, 'admin');
      const url = `/stores/${sensor.store_id}/temp_graphs?equipment_id=${sensor.equipment_id}&start_date=${date}`;
      await page.goto(url);
      await chartReady(page);
      await page.getByText('霜取り（センサの色）').waitFor();
      await expect(panels(page).first().getByText('警報停止').count()).resolves.toBe(0);

      // 12:00–13:00 of the day shown, store-wide (as the alert-stop screen saves a one-day stop).
      await sql`insert into alert_schedules (store_id, schedule_type, term_type, start_date, end_date, time_target_type)
        values (${sensor.store_id}, 1, 2, ${day}, ${day}, 1)`.execute(conn);
      await sql`insert into alert_schedule_times (store_id, schedule_id, equipment_id, start_minute, end_minute)
        select store_id, schedule_id, null, 720, 780 from alert_schedules where store_id = ${sensor.store_id}`.execute(conn);
      await page.goto(url);
      await chartReady(page);
      await panels(page).first().getByText('警報停止').waitFor();
      await framesDrawn(page);
      await screenshot(page, 'graphs-defrost');
    } finally {
      if (sensor) {
        await sql`delete from alert_schedule_times where store_id = ${sensor.store_id}`.execute(conn);
        await sql`delete from alert_schedules where store_id = ${sensor.store_id}`.execute(conn);
      }
      await conn.destroy();
    }
  });

  it('works without JavaScript: the panel’s form sends the checked sensors and keeps the rest', async () => {
    const context = await newContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await login(page, 'admin');
    const { date } = dayWithReadings();
    await page.goto(`/stores/${target.storeId}/temp_graphs?equipment_id=${target.equipmentId}&start_date=${date}&p2_unit=week&p2_start_date=${date}`);
    const first = panels(page).first();
    for (const box of await first.getByRole('checkbox').all()) {
      if (!(await box.isChecked())) {
        await box.check();
        break;
      }
    }
    await first.getByRole('button', { name: '表示' }).click();
    await page.waitForURL((url) => url.searchParams.getAll('equipment_id').filter(Boolean).length === 2);
    await expect(panels(page).first().getByRole('checkbox', { checked: true }).count()).resolves.toBe(2);
    // The second panel came through the first panel's form untouched.
    expect(new URL(page.url()).searchParams.get('p2_unit')).toBe('week');
    await expect(panels(page).count()).resolves.toBe(2);
    await screenshot(page, 'graphs-no-js');
    await context.close();
  });
});
