import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { allowFailedLoads, launchBrowser, login, newContext, newPage, screenshot } from '../support/browser';

// The user master (/user/master…), the store users (/stores/{id}/users/…) and the store create and
// edit forms (001 §2, §5, §8) in Chromium, on the demo chain. What a test creates is named E2EUM…
// and removed afterwards.

let browser: Browser;
let db: Db;
const STORES = ['E2EUM01', 'E2EUM02'];

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
});

afterAll(async () => {
  await db?.deleteFrom('stores').where('store_id', 'in', STORES).execute();
  await db?.deleteFrom('users').where('login_id', 'like', 'e2eum%').execute();
  await db?.destroy();
  await browser?.close();
});

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
}

const fieldError = (page: Page, id: string) => page.locator(`#${id}`).locator('xpath=following-sibling::p[contains(@class,"field-error")]');

describe('user master', () => {
  it('lists users 20 per page with every column, searches by name and filters', async () => {
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, '/user/master');
    await page.getByRole('heading', { name: 'ユーザー一覧' }).waitFor();
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBeLessThanOrEqual(20);
    await page.getByText(/^全\d+件$/).first().waitFor();
    // The inactive demo user shows a dash, the administrator (alert_filter 2) a dash for the alert.
    const yamada = rows.filter({ hasText: 'yamada01' });
    await expect(yamada.locator('td').nth(4).textContent()).resolves.toBe('–');
    const admin = rows.filter({ hasText: '佐藤 健一' });
    await expect(admin.locator('td').nth(4).textContent()).resolves.toBe('✓');
    await expect(admin.locator('td').nth(5).textContent()).resolves.toBe('–');
    await screenshot(page, 'user-master-list');
    await page.getByLabel('ユーザー名検索').fill('山本');
    await page.getByLabel('ユーザー名検索').press('Enter');
    await page.waitForURL(/user_name=/);
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByLabel('ユーザー名検索').fill('該当なしの名前');
    await page.getByLabel('ユーザー名検索').press('Enter');
    await page.getByText('該当する検索結果はありません').waitFor();
    await open(page, '/user/master');
    await page.getByText('絞り込み').first().click();
    await page.getByLabel('メールアドレス').fill('kato');
    await page.getByLabel('メールアドレス').press('Enter');
    await page.waitForURL(/mailaddress=kato/);
    await expect.poll(() => rows.count()).toBe(1);
    // Three mail addresses, each on its line.
    expect(await rows.first().locator('td').nth(2).locator('p').count()).toBe(3);
    await page.locator('select[name=valid_flg]').selectOption('0');
    await page.waitForURL(/valid_flg=0/);
    await page.getByText('該当する検索結果はありません').waitFor();
    await screenshot(page, 'user-master-filtered');
  });

  it('shows every §5 message at its field, creates a user (defaults of §4), refuses §8 duplicates, edits and deletes', { timeout: 150_000 }, async () => {
    allowFailedLoads(400);
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, '/user/master/create');
    await page.getByRole('heading', { name: '新規ユーザー登録' }).waitFor();
    // Defaults: active, notify, occurrence only, JP, one empty group select.
    await expect(page.getByLabel('有効にする').isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('ユーザーに通知する').isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('発生時のみ').isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('日本語').isChecked()).resolves.toBe(true);
    expect(await page.locator('select[name=usergroup]').count()).toBe(1);
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByRole('alert').filter({ hasText: '入力に誤りがあります' }).or(page.getByText('入力に誤りがあります')).first().waitFor();
    await expect(fieldError(page, 'user_name').textContent()).resolves.toBe('入力してください');
    await expect(fieldError(page, 'login_id').textContent()).resolves.toBe('入力してください');
    await expect(fieldError(page, 'company_id').textContent()).resolves.toBe('選択してください');
    await page.getByText('選択してください', { exact: true }).locator('xpath=self::p').first().waitFor();
    await page.getByLabel('ログインID').fill('e2e-um');
    await page.getByLabel('電話番号（ハイフンなし）').fill('03-1234-5678');
    await page.getByLabel('メールアドレス1').fill('not-a-mail');
    await page.getByRole('button', { name: '登録' }).click();
    await expect(fieldError(page, 'login_id').textContent()).resolves.toBe('半角英数を入力してください');
    await expect(fieldError(page, 'tel_no').textContent()).resolves.toBe('半角数値を入力してください');
    await expect(fieldError(page, 'mailaddress1').textContent()).resolves.toBe('フォーマットが違います');
    await screenshot(page, 'user-create-errors');

    // ＋ adds a group select; a login id and a mail already used get the §8 messages from the server.
    await page.getByRole('button', { name: 'ユーザーグループを追加' }).click();
    expect(await page.locator('select[name=usergroup]').count()).toBe(2);
    await page.getByLabel('ユーザーグループ 1').selectOption({ label: '新宿西口店 店舗スタッフ' }).catch(async () => {
      const option = await page.getByLabel('ユーザーグループ 1').locator('option', { hasText: '新宿西口店' }).first().getAttribute('value');
      await page.getByLabel('ユーザーグループ 1').selectOption(option!);
    });
    await page.getByLabel('ユーザー名').fill('E2E 利用者');
    await page.getByLabel('会社').selectOption({ index: 1 });
    await page.getByLabel('ログインID').fill('storeuser');
    await page.getByLabel('電話番号（ハイフンなし）').fill('0312345678');
    await page.getByLabel('メールアドレス1').fill('');
    await page.getByRole('button', { name: '登録' }).click();
    await expect(fieldError(page, 'mailaddress1').textContent()).resolves.toBe('メールアドレスを1件以上入力してください');
    await page.getByLabel('メールアドレス1').fill('admin@example.com');
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('保存失敗しました。').waitFor();
    await expect(fieldError(page, 'login_id').textContent()).resolves.toBe('このIDは既に使用されています');
    await expect(fieldError(page, 'mailaddress1').textContent()).resolves.toBe('このメールアドレスは既に使用されています');
    await screenshot(page, 'user-create-duplicates');

    await page.getByLabel('ログインID').fill('e2eum01');
    await page.getByLabel('メールアドレス1').fill('e2eum01@example.com');
    await page.getByLabel('英語').check();
    await page.getByRole('button', { name: '登録' }).click();
    await page.waitForURL('**/user/master');
    const created = await db.selectFrom('users').selectAll().where('login_id', '=', 'e2eum01').executeTakeFirstOrThrow();
    expect(created).toMatchObject({ user_name: 'E2E 利用者', tel_no: '0312345678', language: 'US', valid_flg: 1, notice_flg: 1, alert_filter: 1 });
    expect(await db.selectFrom('mail_outbox').select('subject').where('to_address', '=', 'e2eum01@example.com').executeTakeFirst()).toMatchObject({ subject: '[On-Reco] Your account' });

    // Edit: the login id is read-only; inactive hides notify and alert, and saves notice 0 and filter 2.
    await open(page, `/user/master/${created.user_id}/edit`);
    await page.getByRole('heading', { name: 'ユーザー情報編集' }).waitFor();
    await expect(page.getByLabel('ログインID').getAttribute('readonly')).resolves.not.toBeNull();
    await page.getByLabel('有効にする').uncheck();
    await page.getByLabel('ユーザーに通知する').waitFor({ state: 'hidden' });
    expect(await page.getByLabel('発生時のみ').isHidden()).toBe(true);
    await screenshot(page, 'user-edit-inactive');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL('**/user/master');
    expect(await db.selectFrom('users').select(['valid_flg', 'notice_flg', 'alert_filter']).where('user_id', '=', created.user_id).executeTakeFirstOrThrow()).toEqual({ valid_flg: 0, notice_flg: 0, alert_filter: 2 });

    // Delete with the confirm dialog; the list reloads at page 1 without the search.
    await open(page, '/user/master?user_name=E2E');
    await page.getByRole('link', { name: 'E2E 利用者を削除' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('データを削除しますか？').waitFor();
    await screenshot(page, 'user-delete-confirm');
    await dialog.getByRole('button', { name: 'データを削除' }).click();
    await page.waitForURL((url) => url.pathname === '/user/master' && url.search === '');
    expect((await db.selectFrom('users').select('deleted_at').where('user_id', '=', created.user_id).executeTakeFirstOrThrow()).deleted_at).not.toBeNull();
  });

  it('says 削除に失敗しました。 when a delete is refused (oneself) and reloads page 1 without the search', async () => {
    allowFailedLoads(403);
    const page = await newPage(browser);
    await login(page, 'admin');
    await open(page, '/user/master?user_name=佐藤');
    await page.getByRole('link', { name: '佐藤 健一を削除' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'データを削除' }).click();
    await page.getByText('削除に失敗しました。').waitFor();
    expect(new URL(page.url()).searchParams.get('user_name')).toBeNull();
    expect(await db.selectFrom('users').select('deleted_at').where('login_id', '=', 'admin').executeTakeFirstOrThrow()).toEqual({ deleted_at: null });
    await screenshot(page, 'user-delete-failed');
  });

  it('asks before discarding edits when the form is closed', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    await open(page, '/user/master/create');
    await page.getByLabel('ユーザー名').fill('書きかけ');
    await page.getByRole('link', { name: '閉じる' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '編集を続ける' }).click().catch(() => dialog.getByRole('button').first().click());
    await expect(page.getByLabel('ユーザー名').inputValue()).resolves.toBe('書きかけ');
    await page.getByRole('link', { name: '閉じる' }).click();
    await page.getByRole('alertdialog').getByRole('button').last().click();
    await page.waitForURL('**/user/master');
  });

  it('works without JavaScript: ＋ posts back with another select, the server\'s messages show at the fields', async () => {
    allowFailedLoads(400);
    const context = await newContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await login(page, 'admin');
    await page.goto('/user/master/create');
    await page.getByRole('button', { name: 'ユーザーグループを追加' }).click();
    await page.waitForLoadState('load');
    expect(await page.locator('select[name=usergroup]').count()).toBe(2);
    await page.getByRole('button', { name: '登録' }).click();
    await page.waitForLoadState('load');
    await expect(fieldError(page, 'user_name').textContent()).resolves.toBe('入力してください');
    await context.close();
  });

  it('refuses maintenance (403) and lets an area manager create a store user with the store\'s groups pre-selected', async () => {
    allowFailedLoads(403, 404); // 403 for maintenance; the sensors show page (another part of issue 13's neighbours) may not exist yet
    const maintenance = await newPage(browser);
    await login(maintenance, 'maintenance');
    const refused = await maintenance.goto('/user/master');
    expect(refused?.status()).toBe(403);

    const store = await db
      .selectFrom('stores')
      .innerJoin('store_usergroups as su', 'su.store_id', 'stores.store_id')
      .innerJoin('user_usergroups as uu', 'uu.usergroup_id', 'su.usergroup_id')
      .innerJoin('users', 'users.user_id', 'uu.user_id')
      .select('stores.store_id')
      .where('users.login_id', '=', 'areamanager')
      .orderBy('stores.store_id')
      .executeTakeFirstOrThrow();
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'areamanager');
    await open(page, `/stores/${store.store_id}/users/create`);
    await page.getByRole('heading', { name: '新規ユーザー登録' }).waitFor();
    expect(await page.getByLabel('ユーザーグループ 1').inputValue()).not.toBe('');
    await page.getByLabel('ユーザー名').fill('E2E 店舗スタッフ');
    await page.getByLabel('会社').selectOption({ index: 1 });
    await page.getByLabel('ログインID').fill('e2eum02');
    await page.getByLabel('メールアドレス1').fill('e2eum02@example.com');
    await screenshot(page, 'store-user-create');
    await page.getByRole('button', { name: '登録' }).click();
    await page.waitForURL(/\/sensors\/show\?tab=users/);
    const user = await db.selectFrom('users').select('user_id').where('login_id', '=', 'e2eum02').executeTakeFirstOrThrow();
    await open(page, `/stores/${store.store_id}/users/${user.user_id}/edit`);
    await expect(page.getByLabel('ログインID').inputValue()).resolves.toBe('e2eum02');
    await screenshot(page, 'store-user-edit');
  });
});

describe('keyboard and no-JavaScript rules of the user master', () => {
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') || document.activeElement?.textContent?.trim() || '');

  it('traps Tab in the delete dialog and the discard dialog, closes them on Escape and gives focus back to the opener', async () => {
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, '/user/master?user_name=佐藤');
    await page.getByRole('link', { name: '佐藤 健一を削除' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('データを削除しますか？').waitFor();
    expect(await focused(page)).toBe('キャンセル');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('データを削除');
    await page.keyboard.press('Tab'); // from the last control round to the first
    expect(await focused(page)).toBe('キャンセル');
    await page.keyboard.press('Shift+Tab'); // and back from the first to the last
    expect(await focused(page)).toBe('データを削除');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('delete')).toBeNull();
    expect(await focused(page)).toBe('佐藤 健一を削除');

    // The shared Dialog: the form's close icon asks before discarding.
    await open(page, '/user/master/create');
    await page.getByLabel('ユーザー名').fill('書きかけ');
    await page.getByRole('link', { name: '閉じる' }).click();
    await dialog.getByText('変更を破棄しますか？').waitFor();
    expect(await focused(page)).toBe('データを破棄');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('編集を続ける');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('データを破棄');
    await screenshot(page, 'user-create-discard-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('閉じる');
    await expect(page.getByLabel('ユーザー名').inputValue()).resolves.toBe('書きかけ');
  });

  it('loads the user group filter\'s options only when it is opened', async () => {
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, '/user/master');
    await page.getByText('絞り込み').first().click();
    const select = page.getByLabel('ユーザーグループ', { exact: true });
    expect(await select.locator('option').count()).toBe(1); // 未選択 only
    const loaded = page.waitForResponse((response) => response.url().includes('/resources/usergroup-choices'));
    await select.focus();
    await loaded;
    await expect.poll(() => select.locator('option').count()).toBeGreaterThan(1);
    await select.selectOption({ index: 1 });
    await page.waitForURL((url) => url.searchParams.has('usergroup_id'));
    await screenshot(page, 'user-master-group-filter');
  });

  it('without JavaScript: 有効 hides the notify and alert controls, an inactive save ignores them, and enabling shows them to choose', async () => {
    const context = await newContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await login(page, 'admin');

    // The group filter without JavaScript: a name search fills the select with the matches.
    await page.goto('/user/master');
    await page.getByText('絞り込み').first().click();
    await page.getByLabel('ユーザーグループ名で候補を検索').fill('店舗');
    await page.getByRole('button', { name: '検索', exact: true }).click();
    await page.waitForLoadState('load');
    expect(await page.getByLabel('ユーザーグループ', { exact: true }).locator('option').count()).toBeGreaterThan(1);

    await page.goto('/user/master/create');
    await page.getByLabel('ユーザーグループ 1').selectOption({ index: 1 });
    await page.getByLabel('ユーザー名').fill('E2E 無効');
    await page.getByLabel('会社').selectOption({ index: 1 });
    await page.getByLabel('ログインID').fill('e2eum03');
    await page.getByLabel('メールアドレス1').fill('e2eum03@example.com');
    expect(await page.getByLabel('ユーザーに通知する').isVisible()).toBe(true);
    await page.getByLabel('有効にする').uncheck();
    expect(await page.getByLabel('ユーザーに通知する').isHidden()).toBe(true);
    expect(await page.getByLabel('発生・復旧時').isHidden()).toBe(true);
    await screenshot(page, 'user-create-inactive-nojs');
    await page.getByRole('button', { name: '登録' }).click();
    await page.waitForURL('**/user/master');
    const saved = await db.selectFrom('users').select(['user_id', 'valid_flg', 'notice_flg', 'alert_filter']).where('login_id', '=', 'e2eum03').executeTakeFirstOrThrow();
    // The hidden controls still held notify on and 発生時のみ: an inactive user is saved without them.
    expect(saved).toMatchObject({ valid_flg: 0, notice_flg: 0, alert_filter: 2 });

    // The saved state decides what the edit page shows; checking 有効 shows the controls to choose.
    await page.goto(`/user/master/${saved.user_id}/edit`);
    expect(await page.getByLabel('有効にする').isChecked()).toBe(false);
    expect(await page.getByLabel('ユーザーに通知する').isHidden()).toBe(true);
    await page.getByLabel('有効にする').check();
    expect(await page.getByLabel('ユーザーに通知する').isVisible()).toBe(true);
    await page.getByLabel('ユーザーに通知する').check();
    await page.getByLabel('発生・復旧時').check();
    await screenshot(page, 'user-edit-enabled-nojs');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL('**/user/master');
    expect(await db.selectFrom('users').select(['valid_flg', 'notice_flg', 'alert_filter']).where('user_id', '=', saved.user_id).executeTakeFirstOrThrow()).toEqual({ valid_flg: 1, notice_flg: 1, alert_filter: 0 });
    await context.close();
  });
});

describe('store create and edit', () => {
  it('shows the §5 messages, the §8 duplicates with 保存失敗しました。, clears the store group on a company change, and creates a store', async () => {
    allowFailedLoads(400);
    const taken = await db.selectFrom('stores').select(['store_no', 'store_name', 'gateway_info']).where('gateway_info', 'is not', null).orderBy('store_id').executeTakeFirstOrThrow();
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await open(page, '/stores/store_infos/create');
    await page.getByRole('heading', { name: '新規店舗作成' }).waitFor();
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('入力に誤りがあります').waitFor();
    for (const id of ['store_id', 'store_no', 'store_name', 'address', 'gateway_info', 'opening_date']) await expect(fieldError(page, id).textContent(), id).resolves.toBe('入力してください');
    for (const id of ['company_id', 'storegroup_id', 'prefecture_id']) await expect(fieldError(page, id).textContent(), id).resolves.toBe('選択してください');
    await page.getByLabel('店舗ID').fill('E2E-01');
    await page.getByLabel('店舗番号').fill('12a');
    await page.getByRole('button', { name: '登録' }).click();
    await expect(fieldError(page, 'store_id').textContent()).resolves.toBe('半角英数を入力してください');
    await expect(fieldError(page, 'store_no').textContent()).resolves.toBe('半角数値を入力してください');
    await screenshot(page, 'store-create-errors');

    await page.getByLabel('会社').selectOption({ index: 1 });
    await page.getByLabel('店舗グループ').selectOption({ index: 1 });
    await page.getByLabel('会社').selectOption({ index: 2 });
    await expect(page.getByLabel('店舗グループ').inputValue()).resolves.toBe('');
    await page.getByLabel('店舗グループ').selectOption({ index: 1 });
    await page.getByLabel('店舗ID').fill('E2EUM01');
    await page.getByLabel('店舗番号').fill(taken.store_no);
    await page.getByLabel('店舗名').fill(taken.store_name);
    await page.getByLabel('都道府県').selectOption('13');
    await page.getByLabel('住所').fill('東京都港区芝公園4-2-8');
    await page.getByLabel('開店日').fill('2026-04-01');
    await page.getByLabel('ユーザーグループ 1').selectOption({ index: 1 });
    await page.getByLabel('ゲートウェイ情報').fill(taken.gateway_info!);
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('保存失敗しました。').waitFor();
    await expect(fieldError(page, 'store_no').textContent()).resolves.toBe('この店舗番号は既に使用されています');
    await expect(fieldError(page, 'store_name').textContent()).resolves.toBe('この店舗名は既に使用されています');
    await expect(fieldError(page, 'gateway_info').textContent()).resolves.toBe('このゲートウェイ情報は既に使用されています');
    await screenshot(page, 'store-create-duplicates');
    await page.getByLabel('店舗番号').fill('98765001');
    await page.getByLabel('店舗名').fill('E2E 芝公園店');
    await page.getByLabel('ゲートウェイ情報').fill('GW-E2EUM01');
    await page.getByRole('button', { name: '登録' }).click();
    // Saved: the confirmation with the next steps, whose button goes on to the store (issue 33 item 7).
    await page.getByRole('alertdialog', { name: '店舗を登録しました' }).getByRole('link', { name: '温度画面へ' }).click();
    await page.waitForURL('**/stores/E2EUM01/temp_managements_image');
    expect(await db.selectFrom('stores').select(['store_name', 'opening_date', 'working_state']).where('store_id', '=', 'E2EUM01').executeTakeFirstOrThrow()).toEqual({
      store_name: 'E2E 芝公園店',
      opening_date: '2026-04-01',
      working_state: 0,
    });
  });

  it('edits a store: opening date locked while operating, the save-settings dialog only for a removed store, empty gateway as null', async () => {
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await db.updateTable('stores').set({ working_state: 1 }).where('store_id', '=', 'E2EUM01').execute();
    await open(page, '/stores/E2EUM01/store_infos/edit');
    await page.getByRole('heading', { name: '店舗情報編集' }).waitFor();
    await expect(page.getByLabel('開店日').getAttribute('readonly')).resolves.not.toBeNull();
    await expect(page.getByLabel('店舗名').inputValue()).resolves.toBe('E2E 芝公園店');
    await screenshot(page, 'store-edit');
    await page.getByLabel('店舗名').fill('E2E 芝公園店 改');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL('**/stores/E2EUM01/master_managements');
    await db.updateTable('stores').set({ working_state: 2 }).where('store_id', '=', 'E2EUM01').execute();
    await open(page, '/stores/E2EUM01/store_infos/edit');
    await page.getByLabel('ゲートウェイ情報').fill('');
    await page.getByRole('button', { name: '保存' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('設定を保存しますか？').waitFor();
    await screenshot(page, 'store-edit-removed-confirm');
    await dialog.getByRole('button', { name: '変更を保存' }).click();
    await page.waitForURL('**/stores/E2EUM01/master_managements');
    expect(await db.selectFrom('stores').select(['store_name', 'gateway_info', 'working_state']).where('store_id', '=', 'E2EUM01').executeTakeFirstOrThrow()).toEqual({
      store_name: 'E2E 芝公園店 改',
      gateway_info: null,
      working_state: 2,
    });
  });
});
