import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_USER } from '../../app/http/sse.server';
import { launchBrowser, login, newPage } from '../support/browser';

// The per-user cap on live-update streams (decision 213) counts open screens: a screen that is
// closed gives its stream back, so a user who opens and closes screens all day is never refused.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('live-update streams of one user', () => {
  it('are given back when screens close: more screens than the cap, one after another, each gets its stream', async () => {
    const first = await newPage(browser);
    await login(first, 'admin');
    await first.close();
    for (let opened = 0; opened < MAX_STREAMS_PER_USER + 5; opened += 1) {
      const page = await first.context().newPage();
      const stream = page.waitForResponse((response) => response.url().includes('/resources/events'));
      await page.goto('/dashboard');
      expect((await stream).status(), `screen ${opened + 1}`).toBe(200);
      await page.close();
    }
  }, 240_000);
});
