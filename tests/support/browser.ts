import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, type Page, chromium } from 'playwright-core';
import { afterAll, afterEach, inject } from 'vitest';

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

/**
 * A browser context as our users' browsers are (Japanese, Tokyo), watched for page problems:
 * every page opened in it fails the test that saw a console error, an uncaught exception or a
 * CSP violation (see allowPageProblems for the ones a test provokes on purpose).
 */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1366, height: 860 }, locale: 'ja-JP', timezoneId: 'Asia/Tokyo', ...options });
  await watchForProblems(context);
  return context;
}

export async function newPage(browser: Browser, viewport = { width: 1366, height: 860 }): Promise<Page> {
  const context = await newContext(browser, { viewport });
  return context.newPage();
}

// ---- page problems ---------------------------------------------------------------------------
// The CSP must hold with no console errors on every page (issue 10): each page of a watched
// context reports its console errors, uncaught exceptions and CSP violations (the
// securitypolicyviolation event, which names the directive and what was blocked), and the
// current test fails on any of them once it is over.

const problems: string[] = [];
let allowed: RegExp[] = [];
const CSP_VIOLATION = 'CSP violation:';

/**
 * Lets the current test's pages report problems that match one of `patterns` (a failed load the
 * test causes on purpose, say). Only until the end of the test.
 */
export function allowPageProblems(...patterns: RegExp[]): void {
  allowed.push(...patterns);
}

/**
 * Lets the current test's pages answer these HTTP statuses (a form refused with 400, a page the
 * viewer may not see with 403, an unknown path with 404): the browser logs each as an error.
 */
export function allowFailedLoads(...statuses: number[]): void {
  allowPageProblems(new RegExp(`Failed to load resource: the server responded with a status of (${statuses.join('|')}) `));
}

/** The problems reported so far, taken away (for a test that provokes one to see it caught). */
export function takePageProblems(): string[] {
  return problems.splice(0);
}

function report(problem: string): void {
  if (!allowed.some((pattern) => pattern.test(problem))) problems.push(problem);
}

async function watchForProblems(context: BrowserContext): Promise<void> {
  await context.addInitScript((prefix) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`${prefix} ${event.violatedDirective} blocked ${event.blockedURI || 'an inline script or style'} (${event.sourceFile || 'the page'}:${event.lineNumber})`);
    });
  }, CSP_VIOLATION);
  const watchPage = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const where = message.location().url || page.url();
      report(`console error on ${where}: ${message.text()}`);
    });
    page.on('pageerror', (error) => report(`uncaught exception on ${page.url()}: ${error.message}`));
  };
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
}

/** Fails on the problems reported since the last look, and forgets the test's allowances. */
function failOnProblems(): void {
  const found = problems.splice(0);
  allowed = [];
  if (found.length > 0) throw new Error(`the pages reported ${found.length} problem(s):\n${found.join('\n')}`);
}

afterEach(failOnProblems);
// Problems of a file's own afterAll (closing pages); registered first, so run after the file's.
afterAll(failOnProblems);

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
