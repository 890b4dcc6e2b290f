import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { inject } from 'vitest';

// Playwright driving Debian's Chromium (/usr/bin/chromium): no browser download here. In Japanese,
// as our users' browsers are: date inputs then read YYYY/MM/DD.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.resolve('test-results/screens');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--lang=ja-JP', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
}

export const baseUrl = () => inject('baseUrl');
export const demoPassword = () => inject('demoPassword');

export async function newPage(browser: Browser, viewport = { width: 1366, height: 860 }): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  return context.newPage();
}

/**
 * Signs in through the login form, as a person would, and waits for the dashboard to be drawn:
 * the client-side navigation changes the URL a moment before React renders the new page.
 */
export async function login(page: Page, loginId: string, password = demoPassword()): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('ID').fill(loginId);
  await page.getByLabel('PASSWORD').fill(password);
  await page.getByRole('button', { name: 'LOGIN' }).click();
  await page.waitForURL('**/dashboard');
  await page.getByRole('heading', { level: 1, name: 'ダッシュボード' }).waitFor();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
