import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { syncStoreListEntries } from '../../app/models/stores.server';
import { storeOfLogin } from '../fixtures/chain';
import { allowFailedLoads, baseUrl, demoPassword, launchBrowser, login, newContext, newPage, screenshot } from '../support/browser';

// The store management page (000 §2): an administrator reissues a PIN, exchanges a gateway and
// removes a store; other roles get 403. The writes happen on stores of our own (E2ESM…), which
// are deleted afterwards; a demo store is only looked at.

let browser: Browser;
let db: Db;
const OWN = ['E2ESM01', 'E2ESM02', 'E2ESM03'];

async function ownStore(storeId: string, index: number) {
  await db.insertInto('companies').values({ company_id: 'E2ESM', company_name: 'E2E店舗管理' }).onConflict((oc) => oc.doNothing()).execute();
  await db.insertInto('storegroups').values({ storegroup_id: 'E2ESM', company_id: 'E2ESM', storegroup_name: 'E2E店舗管理グループ' }).onConflict((oc) => oc.doNothing()).execute();
  await db
    .insertInto('stores')
    .values({
      store_id: storeId,
      store_no: `99900${index}`,
      store_name: `E2E店舗管理 ${index}号店`,
      company_id: 'E2ESM',
      storegroup_id: 'E2ESM',
      prefecture_id: 13,
      address: '東京都千代田区丸の内1-1-1',
      tel_no: '0300000000',
      opening_date: '2025-04-01',
      working_state: 1,
      store_status: 2,
      gateway_info: `GW-${storeId}`,
    })
    .execute();
  await syncStoreListEntries(db, [storeId]);
}

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
  await db.deleteFrom('stores').where('store_id', 'in', OWN).execute();
  for (const [index, storeId] of OWN.entries()) await ownStore(storeId, index + 1);
});

afterAll(async () => {
  await db?.deleteFrom('stores').where('store_id', 'in', OWN).execute();
  await db?.deleteFrom('storegroups').where('storegroup_id', '=', 'E2ESM').execute();
  await db?.deleteFrom('companies').where('company_id', '=', 'E2ESM').execute();
  await db?.destroy();
  await browser?.close();
});

const pagePath = (storeId: string) => `/stores/${storeId}/master_managements`;

/** Opens the page and waits until React has hydrated it (the buttons' handlers are attached). */
async function openPage(page: Page, storeId: string) {
  await page.goto(pagePath(storeId));
  await page.waitForLoadState('networkidle');
}

describe('store management page', () => {
  it('shows a demo store\'s info and PIN to maintenance', async () => {
    const demo = await db.selectFrom('stores').select(['store_id', 'store_name', 'store_no']).where('working_state', '=', 1).where('store_id', 'not in', OWN).orderBy('store_no').executeTakeFirstOrThrow();
    const page = await newPage(browser);
    await login(page, 'maintenance');
    await openPage(page, demo.store_id);
    await page.getByRole('heading', { name: '店舗管理' }).waitFor();
    const info = page.getByRole('region', { name: '店舗情報' });
    await info.getByText(demo.store_name, { exact: true }).waitFor();
    await info.getByText(demo.store_no, { exact: true }).waitFor();
    expect(await info.locator('dd').filter({ hasText: /^\d{4}\/\d{2}\/\d{2}$/ }).count()).toBeGreaterThan(0);
    await info.getByText('稼働中').waitFor();
    expect(await page.getByTestId('pin-code').textContent()).toMatch(/^\d{6}$/);
    expect(await page.getByTestId('pin-effective-time').textContent()).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
    const edit = info.getByRole('link', { name: '編集' });
    expect(await edit.getAttribute('href')).toBe(`/stores/${demo.store_id}/store_infos/edit`);
    // The sidebar's store management item is the current page.
    await expect(page.getByRole('link', { name: '店舗管理' }).getAttribute('aria-current')).resolves.toBe('page');
    await screenshot(page, 'store-management-demo');
  });

  it('lets an administrator issue and reissue the PIN (opening the page issues none)', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    await openPage(page, 'E2ESM01');
    expect(await page.getByTestId('pin-code').count()).toBe(0);
    expect(await db.selectFrom('gateway_pins').select('pin_code').where('store_id', '=', 'E2ESM01').executeTakeFirst()).toBeUndefined();
    await page.getByRole('button', { name: '発行', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'PINコードを発行しました。' }).waitFor();
    const before = await db.selectFrom('gateway_pins').select(['pin_code', 'issued_at']).where('store_id', '=', 'E2ESM01').executeTakeFirstOrThrow();
    await expect.poll(() => page.getByTestId('pin-code').textContent()).toBe(before.pin_code);
    await page.getByRole('button', { name: '再発行' }).click();
    await expect.poll(async () => (await db.selectFrom('gateway_pins').select('issued_at').where('store_id', '=', 'E2ESM01').executeTakeFirstOrThrow()).issued_at.getTime()).toBeGreaterThan(before.issued_at.getTime());
    const after = await db.selectFrom('gateway_pins').select(['pin_code', 'issued_at']).where('store_id', '=', 'E2ESM01').executeTakeFirstOrThrow();
    await expect.poll(() => page.getByTestId('pin-code').textContent()).toBe(after.pin_code);
    const audit = await db.selectFrom('audit_log').select('action').where('store_id', '=', 'E2ESM01').where('action', '=', 'gateway_pin.reissue').execute();
    expect(audit).toHaveLength(2);
    await screenshot(page, 'store-management-pin-reissued');
  });

  it('lets an administrator exchange the gateway, and says why an exchange failed', async () => {
    allowFailedLoads(400); // the refused exchange answers 400
    const page = await newPage(browser);
    await login(page, 'admin');
    await openPage(page, 'E2ESM01');
    const field = page.getByLabel('新しいゲートウェイ情報');
    const exchange = page.getByRole('button', { name: '交換', exact: true });
    await expect(exchange.isDisabled()).resolves.toBe(true);
    await field.fill('   ');
    await expect(exchange.isDisabled()).resolves.toBe(true); // blank after trimming: nothing happens
    await field.fill('GW-E2ESM02');
    await exchange.click();
    const failure = page.getByRole('alertdialog');
    await failure.waitFor();
    expect(await failure.textContent()).toContain('交換に失敗しました');
    expect(await failure.textContent()).toContain('このゲートウェイ情報は既に使用されています');
    await screenshot(page, 'store-management-exchange-failed');
    await failure.getByRole('link', { name: 'OK' }).click();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect((await db.selectFrom('stores').select('gateway_info').where('store_id', '=', 'E2ESM01').executeTakeFirstOrThrow()).gateway_info).toBe('GW-E2ESM01');

    await field.fill('GW-E2E-NEW-01');
    await exchange.click();
    await page.getByRole('status').filter({ hasText: 'ゲートウェイを交換しました。' }).waitFor();
    await expect(page.getByTestId('gateway-info').textContent()).resolves.toBe('GW-E2E-NEW-01');
    await page.getByRole('region', { name: '店舗情報' }).getByText('初回通信待ち').waitFor();
    await expect(field.count()).resolves.toBe(0); // waiting for first communication: no exchange
    await expect(page.getByRole('link', { name: '撤去', exact: true }).count()).resolves.toBe(0);
    const store = await db.selectFrom('stores').select(['gateway_info', 'working_state']).where('store_id', '=', 'E2ESM01').executeTakeFirstOrThrow();
    expect(store).toEqual({ gateway_info: 'GW-E2E-NEW-01', working_state: 0 });
    await screenshot(page, 'store-management-exchanged');
  });

  it('lets an administrator remove a store after confirming', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    await openPage(page, 'E2ESM02');
    const remove = page.getByRole('link', { name: '撤去', exact: true });
    await remove.click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('本当に撤去してもよろしいですか？');
    await screenshot(page, 'store-management-removal-confirm');
    await confirm.getByRole('link', { name: 'キャンセル' }).click();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect((await db.selectFrom('stores').select('working_state').where('store_id', '=', 'E2ESM02').executeTakeFirstOrThrow()).working_state).toBe(1);

    await remove.click();
    await page.getByRole('button', { name: '撤去する' }).click();
    await page.getByRole('status').filter({ hasText: '撤去しました。' }).waitFor();
    expect(await page.locator('[data-working-state="2"]').count()).toBe(2); // the title's removal badge and the info's state
    await expect(page.getByRole('link', { name: '撤去', exact: true }).count()).resolves.toBe(0);
    await page.getByText('撤去された店舗にはPINコードを発行しません。').waitFor();
    await page.getByLabel('新しいゲートウェイ情報').waitFor(); // a removed store can get a gateway again
    const store = await db.selectFrom('stores').select(['working_state', 'store_status', 'gateway_info']).where('store_id', '=', 'E2ESM02').executeTakeFirstOrThrow();
    expect(store).toEqual({ working_state: 2, store_status: 1, gateway_info: 'GW-E2ESM02' });
    await screenshot(page, 'store-management-removed');
  });

  it('shows 撤去に失敗しました when the store changed under the page', async () => {
    allowFailedLoads(409); // the refused removal answers 409
    const page = await newPage(browser);
    await login(page, 'admin');
    await openPage(page, 'E2ESM03');
    await db.updateTable('stores').set({ working_state: 0 }).where('store_id', '=', 'E2ESM03').execute();
    await page.getByRole('link', { name: '撤去', exact: true }).click();
    await page.getByRole('button', { name: '撤去する' }).click();
    const failure = page.getByRole('alertdialog').filter({ hasText: '撤去に失敗しました' });
    await failure.waitFor();
    await screenshot(page, 'store-management-removal-failed');
    // OK shows the store as it is now: waiting for its first communication, no removal button.
    await failure.getByRole('link', { name: 'OK' }).click();
    await page.getByRole('region', { name: '店舗情報' }).getByText('初回通信待ち').waitFor();
    expect(await page.getByRole('link', { name: '撤去', exact: true }).count()).toBe(0);
    expect((await db.selectFrom('stores').select('working_state').where('store_id', '=', 'E2ESM03').executeTakeFirstOrThrow()).working_state).toBe(0);
  });

  it('works without JavaScript: the confirm step is a page of its own', async () => {
    const context = await newContext(browser, { javaScriptEnabled: false, viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    await db.updateTable('stores').set({ working_state: 1 }).where('store_id', '=', 'E2ESM03').execute();
    await page.goto('/login');
    await page.getByLabel('ID').fill('admin');
    await page.getByLabel('PASSWORD').fill(demoPassword());
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await page.waitForURL('**/dashboard');
    await openPage(page, 'E2ESM03');
    await page.getByRole('link', { name: '撤去', exact: true }).click();
    await page.waitForURL('**/master_managements?confirm=removal');
    await page.getByRole('button', { name: '撤去する' }).click();
    await page.getByRole('status').filter({ hasText: '撤去しました。' }).waitFor();
    expect((await db.selectFrom('stores').select('working_state').where('store_id', '=', 'E2ESM03').executeTakeFirstOrThrow()).working_state).toBe(2);
    await context.close();
  });

  it('is 403 for a store user on their own store, without the sidebar item', async () => {
    allowFailedLoads(403); // the page answers a store user 403
    const home = await storeOfLogin(db, 'storeuser');
    const page = await newPage(browser);
    await login(page, 'storeuser');
    const response = await page.goto(pagePath(home.store_id));
    expect(response?.status()).toBe(403);
    await page.getByText('この画面を表示する権限がありません').waitFor();
    await expect(page.getByRole('link', { name: '店舗管理' }).count()).resolves.toBe(0);
    expect(await page.getByTestId('pin-code').count()).toBe(0);
    await screenshot(page, 'store-management-forbidden');
  });
});

describe('the store management calls over HTTP', () => {
  it('routes /v1/stores, /v1/stores/pin and /v1/stores/diagram to their own handlers', async () => {
    const tokenResponse = await fetch(`${baseUrl()}/on-reco/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: 'admin', password: demoPassword() }) });
    const { access_token } = await tokenResponse.json();
    const headers = { Authorization: `Bearer ${access_token}` };
    const store = await fetch(`${baseUrl()}/on-reco/v1/stores?store_id=E2ESM01`, { headers });
    expect(store.status).toBe(200);
    expect(await store.json()).toMatchObject({ store_id: 'E2ESM01', company_name: 'E2E店舗管理', pin_code: expect.stringMatching(/^\d{6}$/) });
    const pin = await fetch(`${baseUrl()}/on-reco/v1/stores/pin?store_id=E2ESM01`, { headers });
    expect(Object.keys(await pin.json()).sort()).toEqual(['effective_time', 'pin_code']);
    const diagram = await fetch(`${baseUrl()}/on-reco/v1/stores/diagram`, { headers });
    expect(diagram.status).toBe(405);
    const users = await fetch(`${baseUrl()}/on-reco/v1/store_users?store_id=E2ESM01`, { headers });
    expect(users.status).toBe(200);
    expect((await users.json()).some((user: { login_id: string }) => user.login_id === 'admin')).toBe(true);
  });
});
