import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { fromJapan, japanParts, toCompactDate } from '../../app/domain/japan-time';
import { keptFrom } from '../../app/domain/retention';
import { launchBrowser, login, newPage, screenshot } from '../support/browser';

// The graph page of periods beyond retention (docs/decisions/188-retention.md), on the demo chain
// with the default retention: the first panel a month beyond the buckets' 5 years (nothing can be
// drawn: the chart says why), the second a month beyond the readings' 2 years only (a note above
// the chart: it is drawn from the 10-minute averages).

let browser: Browser;
let target: { storeId: string; equipmentId: number };

beforeAll(async () => {
  browser = await launchBrowser();
  const conn = createDb(inject('databaseUrl'), 1);
  try {
    const { rows } = await sql<{ store_id: string; equipment_id: number }>`
      select store_id, equipment_id from sensors where disp_flg = 1 order by store_id, equipment_id limit 1`.execute(conn);
    target = { storeId: rows[0].store_id, equipmentId: rows[0].equipment_id };
  } finally {
    await conn.destroy();
  }
});
afterAll(() => browser?.close());

const monthBefore = (at: Date) => {
  const p = japanParts(at);
  return toCompactDate(fromJapan(p.year, p.month - 1, 1));
};

describe('temperature graphs beyond retention', () => {
  it('says the data of the period was deleted instead of showing an empty chart', async () => {
    const page = await newPage(browser, { width: 1440, height: 900 });
    await login(page, 'admin');
    const now = new Date();
    const beyondBuckets = monthBefore(keptFrom(now, 60));
    const beyondReadings = monthBefore(keptFrom(now, 24));
    const query = new URLSearchParams({ equipment_id: String(target.equipmentId), unit: 'month', start_date: beyondBuckets, p2_equipment_id: String(target.equipmentId), p2_unit: 'month', p2_start_date: beyondReadings });
    await page.goto(`/stores/${target.storeId}/temp_graphs?${query}`);
    const panels = page.getByTestId('graph-panel');
    await panels.nth(1).waitFor();
    await page.getByTestId('graph-loading').first().waitFor({ state: 'detached' });

    // Over the chart (the screen-reader summary, sr-only, says the same).
    const whole = panels.first().locator('p:not(.sr-only)', { hasText: /^保存期間（5年）を過ぎたため、この期間の計測データは削除されています$/ });
    await whole.waitFor();
    await expect(whole.isVisible()).resolves.toBe(true);
    await expect(panels.first().getByText('この期間の計測データはありません').count()).resolves.toBe(0);
    const note = panels.nth(1).getByTestId('retention-note');
    await expect(note.textContent()).resolves.toBe('保存期間（2年）を過ぎたため、この期間の計測データは削除されています（グラフは10分ごとの平均値で表示しています）');
    await expect(panels.nth(1).getByTestId('retention-note').isVisible()).resolves.toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'graphs-beyond-retention');
  });
});
