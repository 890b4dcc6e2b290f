import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { audit } from '../../app/models/audit.server';
import { allowFailedLoads, launchBrowser, login, newPage, screenshot } from '../support/browser';

// The 監査ログ page (issue 13 item 6): an administrator opens it from システム管理, filters it,
// reads a row's before / after, and sees where the chain breaks after a change made with SQL.
// Our rows name a store of our own (E2EAU01); the tampered row is put back afterwards, so the
// chain verifies again for the other files.

let browser: Browser;
let db: Db;
const STORE = 'E2EAU01';
let tamperedId = 0;
/** The tampered row's details as stored (json keeps its text, and the hash covers that text). */
let original = '';

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
  const admin = await db.selectFrom('users').select('user_id').where('login_id', '=', 'admin').executeTakeFirstOrThrow();
  for (let i = 1; i <= 3; i += 1) {
    await db.transaction().execute((trx) =>
      audit(trx, {
        userId: admin.user_id,
        action: 'store.update',
        targetType: 'store',
        targetId: STORE,
        storeId: STORE,
        details: { before: { store_name: `E2E監査店 ${i}`, tel_no: '0300000000' }, after: { store_name: `E2E監査店 ${i + 1}`, tel_no: '0300000000' } },
      }),
    );
  }
  await db.transaction().execute((trx) =>
    audit(trx, { userId: admin.user_id, action: 'gateway.exchange', targetType: 'store', targetId: STORE, storeId: STORE, details: { before: { gateway_info: 'GW-E2EAU-OLD' }, after: { gateway_info: 'GW-E2EAU-NEW' } } }),
  );
});

afterAll(async () => {
  if (tamperedId) await sql`update audit_log set details = ${original}::json where audit_id = ${tamperedId}`.execute(db);
  await db?.destroy();
  await browser?.close();
});

describe('監査ログ page', () => {
  it('is reached from システム管理, lists the trail, filters it and shows a row\'s before and after', async () => {
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await page.locator('summary[aria-label="システム管理"]').click();
    await page.getByRole('link', { name: '監査ログ', exact: true }).click();
    await page.waitForURL('**/audit_logs');
    await page.getByRole('heading', { level: 1, name: '監査ログ' }).waitFor();
    await page.getByRole('status').filter({ hasText: '改ざんは検出されませんでした' }).waitFor();
    const list = page.getByRole('region', { name: '監査ログ一覧' });
    await list.getByText(/全\d+件/).waitFor();
    await screenshot(page, 'audit-log');

    await page.getByLabel('店舗').selectOption(STORE);
    await page.getByRole('button', { name: '検索' }).click();
    await page.waitForURL(`**/audit_logs?*store_id=${STORE}*`);
    await list.getByText('全4件').waitFor();
    expect(await list.locator('tbody tr').count()).toBe(4);
    await page.getByLabel('種別').selectOption('gateway');
    await page.getByRole('button', { name: '検索' }).click();
    await list.getByText('全1件').waitFor();
    const row = list.locator('tbody tr').first();
    // The action and its target in Japanese (issue 33 item 8), not as identifiers.
    await row.getByText('ゲートウェイ交換').waitFor();
    expect(await row.getByText('gateway.exchange').count()).toBe(0);
    await row.getByText('変更前・変更後').click();
    await row.getByText('gateway_info: GW-E2EAU-OLD').waitFor();
    await row.getByText('gateway_info: GW-E2EAU-NEW').waitFor();
    await screenshot(page, 'audit-log-filtered-open');
  });

  it('shows where the chain breaks after a row is changed with SQL, and marks the row', async () => {
    const [row] = await db.selectFrom('audit_log').select(['audit_id', sql<string>`details::text`.as('details')]).where('store_id', '=', STORE).where('action', '=', 'store.update').orderBy('audit_id').limit(1).execute();
    tamperedId = Number(row.audit_id);
    original = row.details;
    await sql`update audit_log set details = jsonb_set(details::jsonb, '{after,store_name}', '"書き換えられた店名"')::json where audit_id = ${tamperedId}`.execute(db);
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await page.goto(`/audit_logs?store_id=${STORE}&kind=store`);
    const banner = page.getByRole('alert');
    await banner.getByText('監査ログの改ざんを検出しました').waitFor();
    await banner.getByText(`監査ID ${tamperedId}：内容が書き換えられています`).waitFor();
    const marked = page.locator('tbody tr[data-broken="true"]');
    expect(await marked.count()).toBe(1);
    expect(await marked.locator('td').first().textContent()).toMatch(new RegExp(`^${tamperedId}⚠`));
    await marked.getByText('⚠ 内容が書き換えられています').waitFor();
    await marked.getByText('変更前・変更後').click();
    await marked.getByText('store_name: 書き換えられた店名').waitFor();
    await screenshot(page, 'audit-log-tampered');

    await sql`update audit_log set details = ${original}::json where audit_id = ${tamperedId}`.execute(db);
    tamperedId = 0;
    await page.reload();
    await page.getByRole('status').filter({ hasText: '改ざんは検出されませんでした' }).waitFor();
  });

  it('answers 403 to anyone but administrators, and the menu does not show it', async () => {
    allowFailedLoads(403);
    const page = await newPage(browser);
    await login(page, 'maintenance');
    expect(await page.locator('summary[aria-label="システム管理"]').count()).toBe(0);
    const response = await page.goto('/audit_logs');
    expect(response?.status()).toBe(403);
  });
});
