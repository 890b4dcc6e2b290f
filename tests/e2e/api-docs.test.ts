import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CALLS } from '../../app/domain/api';
import { baseUrl, launchBrowser, newPage, screenshot, takePageProblems } from '../support/browser';

// Issue 10 "Done when": a readable API reference for scripters at /on-reco/docs, a static viewer
// of the OpenAPI description served from our own origin (no CDN), that renders in Chromium under
// the CSP (no unsafe-inline, no unsafe-eval) with no console errors (newPage watches for them).
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('the API reference', () => {
  it('renders every declared call from our own origin under the CSP', async () => {
    const page = await newPage(browser, { width: 1366, height: 900 });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const response = await page.goto('/on-reco/docs');
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    const scripts = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(scripts).toMatch(/^'self' 'nonce-[A-Za-z0-9+/=]+'$/);

    await page.locator('.opblock').first().waitFor();
    const operations = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((block) => ({
        method: block.querySelector('.opblock-summary-method')?.textContent?.trim(),
        path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path'),
      })),
    );
    const listed = operations.map((operation) => `${operation.method} ${operation.path}`).sort();
    // Every call, and the webhook we post to endpoints (OpenAPI's webhooks.alert, decision 285).
    expect(listed).toEqual([...API_CALLS.map((call) => `${call.method} ${call.path}`), 'POST alert'].sort());
    expect(await page.getByRole('heading', { name: /On-Reco API/ }).count()).toBeGreaterThan(0);

    // One call opened: its description, parameters and answers are readable.
    await page.locator('.opblock-summary', { hasText: '/on-reco/v1/store_list' }).first().click();
    await page.locator('.opblock.is-open .responses-wrapper').waitFor();
    await screenshot(page, 'api-docs');

    const foreign = requested.filter((url) => !url.startsWith(baseUrl()) && !url.startsWith('data:'));
    expect(foreign, 'requests to other origins').toEqual([]);
  });

  it('refuses a script without the nonce, and the browser tests see the violation', async () => {
    const page = await newPage(browser);
    await page.goto('/on-reco/docs');
    await page.locator('.opblock').first().waitFor();
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true;';
      document.body.append(script);
    });
    await expect.poll(() => page.evaluate(() => (window as unknown as { injected?: boolean }).injected ?? false)).toBe(false);
    let reported: string[] = [];
    await expect.poll(() => (reported = [...reported, ...takePageProblems()]).some((problem) => problem.includes('CSP violation: script-src'))).toBe(true);
  });
});
