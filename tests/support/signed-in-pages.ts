import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { launchBrowser, login, newContext } from './browser';

/**
 * A test file's browser and database, opened before its tests and closed after them, and pages
 * signed in as a user at a given viewport (each in a context of its own, closed at the end).
 */
export function signedInPages() {
  let browser: Browser;
  let db: Db | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    db = createDb(inject('databaseUrl'), 1);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await db?.destroy();
  });
  return {
    /** The suite's database (after beforeAll). */
    db: () => db!,
    async pageAt(width: number, height: number, loginId: string, options: { touch?: boolean } = {}): Promise<Page> {
      const context = await newContext(browser, { viewport: { width, height }, hasTouch: options.touch, isMobile: options.touch });
      contexts.push(context);
      const page = await context.newPage();
      await login(page, loginId);
      return page;
    },
  };
}
