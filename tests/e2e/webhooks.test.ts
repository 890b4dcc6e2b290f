import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { allowFailedLoads, launchBrowser, login, newPage, screenshot } from '../support/browser';

// The Webhook送信先 screen (decision 285): an administrator registers an endpoint from システム管理,
// is shown its secret once, and retries a dead letter now. A real receiver on this machine.

let browser: Browser;
let db: Db;
let receiver: Server;
const PREFIX = 'E2E 本部Slack';

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await db?.deleteFrom('webhook_endpoints').where('endpoint_name', 'like', `${PREFIX}%`).execute();
  await db?.destroy();
  await browser?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('Webhook送信先 page', () => {
  it('registers an endpoint (https only), shows its secret once, and retries a dead letter now', async () => {
    allowFailedLoads(400);
    // Its own name each try (a retried test finds the last try's endpoint still there).
    const NAME = `${PREFIX} ${crypto.randomUUID().slice(0, 8)}`;
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await page.locator('summary[aria-label="システム管理"]').click();
    await page.getByRole('link', { name: 'Webhook送信先', exact: true }).click();
    await page.waitForURL('**/webhooks');
    await page.getByRole('heading', { level: 1, name: 'Webhook送信先' }).waitFor();

    await page.getByLabel('名前').fill(NAME);
    await page.getByLabel('URL').fill('http://hooks.example.com/onreco');
    await page.getByLabel('形式').selectOption('slack');
    await page.getByRole('button', { name: '登録' }).click();
    await expect.poll(() => page.getByText('URLは https:// で始めてください').count(), { timeout: 15_000 }).toBeGreaterThan(0);

    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await page.getByLabel('URL').fill(url);
    await page.getByRole('button', { name: '登録' }).click();
    const secret = page.getByTestId('webhook-secret');
    await secret.waitFor({ timeout: 15_000 });
    expect(await secret.textContent()).toMatch(/^whsec_[0-9a-f]{64}$/);
    const endpoints = page.getByRole('region', { name: '登録済みの送信先' });
    await endpoints.getByRole('cell', { name: NAME, exact: true }).waitFor();
    await expect.poll(() => endpoints.getByRole('cell', { name: 'Slack', exact: true }).count()).toBeGreaterThan(0);

    const endpoint = await db.selectFrom('webhook_endpoints').select('endpoint_id').where('endpoint_name', '=', NAME).executeTakeFirstOrThrow();
    const dead = await db
      .insertInto('webhook_deliveries')
      .values({ endpoint_id: endpoint.endpoint_id, store_id: 'E2EWH01', alert_history_id: 987654, event: 'alert.opened', step_no: 0, idempotency_key: crypto.randomUUID(), body: '{}', state: 'dead', attempts: 9, last_error: 'HTTP 503' })
      .returning('delivery_id')
      .executeTakeFirstOrThrow();
    await page.reload();
    // A reload forgets the secret: it was shown once.
    await page.getByRole('heading', { level: 1, name: 'Webhook送信先' }).waitFor();
    expect(await page.getByTestId('webhook-secret').count()).toBe(0);
    const letters = page.getByRole('region', { name: '送信失敗（再送停止）' });
    const row = letters.getByRole('row').filter({ hasText: NAME });
    await row.getByText('HTTP 503').waitFor();
    await screenshot(page, 'webhooks-1366');
    const phone = await newPage(browser, { width: 390, height: 844 });
    await login(phone, 'admin');
    await phone.goto('/webhooks');
    await phone.getByRole('heading', { level: 1, name: 'Webhook送信先' }).waitFor();
    await screenshot(phone, 'webhooks-390');

    await row.getByRole('button', { name: '今すぐ再送' }).click();
    await page.getByText('再送を予約しました').waitFor({ timeout: 15_000 });
    await expect.poll(async () => (await db.selectFrom('webhook_deliveries').select('state').where('delivery_id', '=', dead.delivery_id).executeTakeFirstOrThrow()).state).not.toBe('dead');
  });
});
