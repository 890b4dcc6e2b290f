import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { toCompactDate } from '../../app/domain/japan-time';
import { storeOfLogin } from '../fixtures/chain';
import { launchBrowser, login, newPage, screenshot } from '../support/browser';

// The HACCP daily record page (issue 14 item 6): a store user opens it from the sidebar, walks
// the days, signs today's record with the keyboard, sees who signed and downloads the month's PDF.

let browser: Browser;
let db: Db;
const SHOTS = '/work/shots/h14b';

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
});

afterAll(async () => {
  await db?.destroy();
  await browser?.close();
});

const keep = (name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  copyFileSync(path.resolve('test-results/screens', `${name}.png`), path.join(SHOTS, `${name}.png`));
};

describe('HACCP record page', () => {
  it('opens from the sidebar, shows each sensor, signs today and offers the monthly PDF', async () => {
    const store = await storeOfLogin(db, 'storeuser');
    const today = toCompactDate(new Date());
    await db.deleteFrom('haccp_signoffs').where('store_id', '=', store.store_id).where('day', '=', `${today.slice(0, 4)}-${today.slice(4, 6)}-${today.slice(6)}`).execute();
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'storeuser');
    await page.goto(`/stores/${store.store_id}/temp_graphs`);
    await page.getByRole('link', { name: 'HACCP記録' }).click();
    await page.getByRole('heading', { name: 'HACCP記録' }).waitFor();
    await page.waitForLoadState('networkidle');
    const table = page.getByRole('region', { name: 'センサーごとの確認結果' });
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(3);

    // Yesterday: a full day of the demo's readings.
    await page.getByRole('link', { name: '前日' }).click();
    await page.waitForURL(/date=\d{8}/);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'haccp-yesterday');
    keep('haccp-yesterday');

    // Back to today and sign it with the keyboard only.
    await page.getByRole('link', { name: '翌日' }).click();
    await page.waitForURL(new RegExp(`date=${today}`));
    await page.waitForLoadState('networkidle');
    await page.getByLabel('備考').focus();
    await page.keyboard.type('朝夕の温度を確認しました');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toMatch(/署名/);
    await page.keyboard.press('Enter');
    await page.getByText('署名済み').waitFor();
    await page.waitForLoadState('networkidle');
    const signoff = page.getByRole('region', { name: '署名' });
    expect(await signoff.textContent()).toContain('朝夕の温度を確認しました');
    expect(await signoff.getByRole('button').count()).toBe(0);
    await screenshot(page, 'haccp-signed');
    keep('haccp-signed');
    const rows = await db.selectFrom('haccp_signoffs').select('note').where('store_id', '=', store.store_id).where('note', '=', '朝夕の温度を確認しました').execute();
    expect(rows).toHaveLength(1);

    const href = await page.getByRole('link', { name: /月次PDF/ }).getAttribute('href');
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
