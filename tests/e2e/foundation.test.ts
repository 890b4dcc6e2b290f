import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { AUTHORITY } from '../../app/domain/roles';
import { TEST_PASSWORD, createUser } from '../fixtures/chain';
import { allowFailedLoads, allowPageProblems, launchBrowser, login, newPage, screenshot } from '../support/browser';
import { startSmtpServer } from '../support/smtp';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe('sign-in', () => {
  it('logs in, shows the dashboard inside the layout, and logs out', async () => {
    const page = await newPage(browser);
    await page.goto('/');
    await page.getByRole('button', { name: 'LOGIN' }).waitFor();
    await screenshot(page, 'login');
    await login(page, 'admin');
    await page.getByRole('heading', { name: 'ダッシュボード' }).waitFor();
    // The dashboard link is hidden on the dashboard itself.
    await expect(page.getByRole('link', { name: 'ダッシュボード' }).count()).resolves.toBe(0);
    await screenshot(page, 'dashboard-shell');
    await page.locator('summary[aria-label$="様"]').click();
    await page.getByRole('button', { name: 'ログアウト' }).click();
    await page.waitForURL('**/login');
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
  });

  it('shows the server error text in a red bar for a wrong password', async () => {
    allowFailedLoads(400); // the refused sign-in answers 400
    const page = await newPage(browser);
    await page.goto('/login');
    await page.getByLabel('ID').fill('admin');
    await page.getByLabel('PASSWORD').fill('wrong-password');
    await page.getByRole('button', { name: 'LOGIN' }).click();
    const bar = page.getByRole('alert');
    await bar.waitFor();
    expect(await bar.textContent()).toBe('The user name or password is incorrect.');
    expect(await bar.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(220, 38, 38)');
    await screenshot(page, 'login-error');
  });

  it('sends a route without a session to /login', async () => {
    const page = await newPage(browser);
    for (const path of ['/dashboard', '/passwords/edit', '/notifications/create', '/stores/anything/temp_managements_image']) {
      await page.goto(path);
      expect(new URL(page.url()).pathname).toBe('/login');
    }
  });

  it('shows the expiry notice when the session has run out', async () => {
    // The dashboard's event stream, should it reconnect after the session ran out, is answered the
    // sign-in page: the browser logs that the stream is not one, and the screen goes to /login.
    allowPageProblems(/EventSource's response has a MIME type \("text\/html"\)/);
    const page = await newPage(browser);
    await login(page, 'storeuser');
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === '__onreco_session')?.httpOnly).toBe(true);
    const db = createDb(inject('databaseUrl'), 1);
    await db.updateTable('access_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('revoked_at', 'is', null).execute();
    await db.destroy();
    await page.goto('/dashboard');
    expect(new URL(page.url()).pathname).toBe('/login');
    await expect(page.getByRole('alertdialog').textContent()).resolves.toContain('ログイン有効切れです。再度ログインして下さい。');
    await screenshot(page, 'session-expired');
    await page.getByRole('button', { name: 'OK' }).click();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
  });

  it('shows Page Not Found with a link to the dashboard for unknown paths', async () => {
    allowFailedLoads(404); // an unknown path answers 404
    const page = await newPage(browser);
    await login(page, 'areamanager');
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await screenshot(page, 'not-found');
    await page.getByRole('link', { name: 'ダッシュボードへ戻る' }).click();
    await page.waitForURL('**/dashboard');
  });
});

describe('forgotten password', () => {
  it('mails a temporary password to a real SMTP server, and it signs the user in', async () => {
    allowFailedLoads(400); // a refused form answers 400
    const smtp = await startSmtpServer(inject('smtpPort'));
    try {
      const page = await newPage(browser);
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toBe('The login_id or email address is incorrect.');
      await screenshot(page, 'forgot-password-error');
      // An unknown account is answered as a known one (no account enumeration), and mailed nothing.
      await page.getByLabel('Email address of your account').fill('nobody@example.com');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForURL('**/passwords/issue');
      await page.goto('/passwords/forget');

      await page.getByLabel('Email address of your account').fill('casemanager');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForURL('**/passwords/issue');
      await screenshot(page, 'password-issued');
      const [mail] = await smtp.waitFor(1);
      const password = /(?:仮パスワード|Temporary password): (\S+)/.exec(mail.text)?.[1];
      expect(password).toBeTruthy();
      await page.getByRole('link', { name: 'Return to login' }).click();
      await login(page, 'casemanager', password);
    } finally {
      await smtp.close();
    }
  });
});

describe('menus per role', () => {
  const expectations = {
    admin: { master: true, system: true, notice: true },
    maintenance: { master: false, system: false, notice: false },
    casemanager: { master: true, system: false, notice: false },
    areamanager: { master: true, system: false, notice: false },
    storeuser: { master: false, system: false, notice: false },
  };
  for (const [loginId, expected] of Object.entries(expectations)) {
    it(`shows ${loginId} the menus of the role table`, async () => {
      // The notice page answers the other roles 403.
      if (!expected.notice) allowFailedLoads(403);
      const page = await newPage(browser);
      await login(page, loginId);
      expect(await page.locator('summary[aria-label="マスタ管理"]').count()).toBe(expected.master ? 1 : 0);
      expect(await page.locator('summary[aria-label="システム管理"]').count()).toBe(expected.system ? 1 : 0);
      await page.locator('summary[aria-label$="様"]').click();
      expect(await page.getByRole('link', { name: 'お知らせ作成' }).count()).toBe(expected.notice ? 1 : 0);
      await page.getByRole('link', { name: 'パスワード変更' }).waitFor();
      await screenshot(page, `account-popup-${loginId}`);
      // The server enforces the same table: the notice page is for administrators only.
      const response = await page.goto('/notifications/create');
      expect(response?.status()).toBe(expected.notice ? 200 : 403);
    });
  }

  it('opens each popup for an administrator', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    for (const [label, items] of [
      ['マスタ管理', ['ユーザー登録', '新規店舗登録']],
      ['システム管理', ['会社', '店舗グループ', 'ユーザーグループ']],
    ] as const) {
      await page.locator(`summary[aria-label="${label}"]`).click();
      for (const item of items) await page.getByRole('link', { name: item, exact: true }).waitFor();
      await screenshot(page, `popup-${label}`);
      await page.keyboard.press('Escape');
    }
    await page.locator('summary[aria-label="お知らせ"]').click();
    await page.getByText('もっと見る').or(page.getByRole('group', { name: 'お知らせ' })).first().waitFor();
    await screenshot(page, 'popup-notifications');
  });
});

describe('notices and password change', () => {
  it('creates a notice that then shows in the announcement bar', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    await page.goto('/notifications/create');
    await page.waitForLoadState('networkidle'); // hydrated: the counters follow the typing
    const register = page.getByRole('button', { name: '登録' });
    expect(await register.isDisabled()).toBe(true);
    await page.getByLabel('タイトル').fill('冷凍ケース点検のお知らせ');
    await page.getByLabel('本文').fill('11月25日 2時〜4時に全店の冷凍ケースを点検します。');
    await page.getByText('28 / 100').waitFor();
    await page.getByText('12 / 30').waitFor();
    await screenshot(page, 'notice-create');
    await register.click();
    await page.getByText('お知らせを登録しました').waitFor();
    await page.goto('/dashboard');
    await expect(page.getByLabel('最新のお知らせ').textContent()).resolves.toContain('冷凍ケース点検のお知らせ');
    await screenshot(page, 'dashboard-announcement');
  });

  it('checks the new password rules and changes the password', async () => {
    allowFailedLoads(400); // each refused password answers 400
    // A user of its own: the demo logins keep their password for the other browser tests.
    const db = createDb(inject('databaseUrl'), 1);
    await createUser(db, 'password-changer', AUTHORITY.maintenance);
    await db.destroy();
    const page = await newPage(browser);
    await login(page, 'password-changer', TEST_PASSWORD);
    await page.goto('/passwords/edit');
    const change = page.getByRole('button', { name: '変更する' });
    expect(await change.isDisabled()).toBe(true);
    await page.getByLabel('現在のパスワード').fill(TEST_PASSWORD);
    await page.getByLabel('新しいパスワード', { exact: true }).fill('short');
    await page.getByLabel('新しいパスワード（確認）').fill('short');
    await change.click();
    await page.getByText('12 文字以上の半角英数字を使用してください').waitFor();
    await page.getByText('入力に誤りがあります').waitFor();
    await page.getByLabel('新しいパスワード', { exact: true }).fill('a_much_longer_password_1');
    await page.getByLabel('新しいパスワード（確認）').fill('a_much_longer_password_2');
    await change.click();
    await page.getByText('新しいパスワードと一致しません').waitFor();
    await screenshot(page, 'password-change-error');
    await page.getByLabel('新しいパスワード（確認）').fill('a_much_longer_password_1');
    await change.click();
    await page.getByText('パスワードを変更しました').waitFor();
    await screenshot(page, 'password-changed');
    // Still signed in; the new password works from a fresh browser.
    await page.goto('/dashboard');
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    const fresh = await newPage(browser);
    await login(fresh, 'password-changer', 'a_much_longer_password_1');
  });
});
