import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { allowFailedLoads, launchBrowser, login, newPage, screenshot } from '../support/browser';

// The system masters (001 §2, §5, §8; issue 13 item 3): the user group, company and store group
// lists with search, filters, counts and paging, the create and edit forms with §5's messages,
// and delete behind the dialog, refused with the reason when in use. Writes use our own E2EM… rows.

let browser: Browser;
let db: Db;

async function cleanUp() {
  await db.deleteFrom('storegroups').where('storegroup_id', 'like', 'EM%').execute();
  await db.deleteFrom('companies').where('company_id', 'like', 'E2EM%').execute();
  await db.deleteFrom('usergroups').where('usergroup_name', 'like', 'E2E%').execute();
}

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
  await cleanUp();
});

afterAll(async () => {
  await cleanUp();
  await db?.destroy();
  await browser?.close();
});

async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
}

describe('system masters', () => {
  it('are refused to a case manager (403)', async () => {
    const page = await newPage(browser);
    await login(page, 'casemanager');
    for (const path of ['/usergroup/master', '/company/master/create', '/storegroup/master']) {
      const response = await page.request.get(path);
      expect(response.status(), path).toBe(403);
    }
  });

  it('user groups: list with counts and paging, search on Enter, create with §5 messages, edit, delete, in-use refusal', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    await open(page, '/usergroup/master');
    await page.getByRole('heading', { name: 'ユーザーグループマスタ' }).waitFor();
    const total = await db.selectFrom('usergroups').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await page.getByText(`全${total.n}件`).first().waitFor();
    await page.getByText(`1〜20件を表示`).first().waitFor();
    expect(await page.getByRole('table', { name: 'ユーザーグループ' }).locator('tbody tr').count()).toBe(20);
    await screenshot(page, 'masters-usergroup-list');
    await page.getByRole('link', { name: '次のページ' }).first().click();
    await page.getByText(`21〜${Math.min(40, Number(total.n))}件を表示`).first().waitFor();

    // Create: the client's messages, then a valid save back to the list.
    await page.getByRole('link', { name: '新規追加' }).click();
    await page.getByRole('heading', { name: '新規ユーザーグループ登録' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('入力に誤りがあります').waitFor();
    await page.getByText('入力してください').waitFor();
    await page.locator('#field-usergroup_authority-error', { hasText: '選択してください' }).waitFor();
    await screenshot(page, 'masters-usergroup-create-errors');
    await page.getByLabel('ユーザーグループ名').fill('E2E 仕入担当');
    await page.getByLabel('権限').selectOption({ value: '30' });
    await page.getByRole('button', { name: '登録' }).click();
    await page.waitForURL('**/usergroup/master');

    // Search on Enter finds it; edit it.
    await page.getByPlaceholder('ユーザーグループ名で検索').fill('E2E 仕入');
    await page.getByPlaceholder('ユーザーグループ名で検索').press('Enter');
    await page.getByText('全1件').first().waitFor();
    await page.getByRole('link', { name: 'E2E 仕入担当を編集' }).click();
    await page.getByRole('heading', { name: 'ユーザーグループ情報編集' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByLabel('ユーザーグループ名').fill('E2E 仕入担当（本部）');
    await screenshot(page, 'masters-usergroup-edit');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL('**/usergroup/master');
    const saved = await db.selectFrom('usergroups').select(['usergroup_id', 'usergroup_authority']).where('usergroup_name', '=', 'E2E 仕入担当（本部）').executeTakeFirstOrThrow();
    expect(saved.usergroup_authority).toBe(30);

    // Delete: the dialog (Escape closes it), then delete; the search resets to page 1.
    await open(page, `/usergroup/master?usergroup_name=${encodeURIComponent('E2E')}`);
    await page.getByRole('link', { name: 'E2E 仕入担当（本部）を削除' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'データを削除しますか？' });
    await dialog.waitFor();
    await screenshot(page, 'masters-usergroup-delete-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'E2E 仕入担当（本部）を削除' }).click();
    await dialog.getByRole('button', { name: 'データを削除' }).click();
    await page.waitForURL((url) => url.pathname === '/usergroup/master' && url.search === '');
    expect(await db.selectFrom('usergroups').select('usergroup_id').where('usergroup_id', '=', saved.usergroup_id).executeTakeFirst()).toBeUndefined();

    // A group with members: 削除に失敗しました。 with the reason, page 1.
    await open(page, `/usergroup/master?usergroup_name=${encodeURIComponent('システム管理者グループ')}`);
    await page.getByRole('link', { name: 'システム管理者グループを削除' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'データを削除' }).click();
    await page.getByText('削除に失敗しました。このユーザーグループにはユーザーが所属しています。').waitFor();
    await page.getByText('1〜20件を表示').first().waitFor();
    await screenshot(page, 'masters-usergroup-delete-failed');
  });

  it('companies: create refuses a used ID (既に使用されています), edit keeps the ID, delete in use is refused', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    await open(page, '/company/master');
    await page.getByRole('heading', { name: '会社マスタ' }).waitFor();
    await page.getByText('1〜20件を表示').first().waitFor();
    await screenshot(page, 'masters-company-list');
    await open(page, '/company/master/create');
    await page.getByRole('heading', { name: '新規会社登録' }).waitFor();
    // The refused saves answer 400 (the fields' messages), which the browser logs.
    allowFailedLoads(400);
    await page.getByLabel('会社ID').fill('ONRECO');
    await page.getByLabel('会社名').fill('E2E 商事');
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('既に使用されています').waitFor();
    await page.getByLabel('会社ID').fill('E2E-1');
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('半角英数を入力してください').waitFor();
    await page.getByLabel('会社ID').fill('E2EM1');
    await page.getByLabel('会社名').fill('あ'.repeat(21));
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('20文字以内で入力してください').waitFor();
    await screenshot(page, 'masters-company-create-errors');
    await page.getByLabel('会社名').fill('E2E 商事');
    await page.getByRole('button', { name: '登録' }).click();
    await page.waitForURL('**/company/master');

    await open(page, '/company/master/E2EM1/edit');
    await page.getByRole('heading', { name: '会社情報編集' }).waitFor();
    expect(await page.getByLabel('会社ID').getAttribute('readonly')).not.toBeNull();
    await page.getByLabel('会社名').fill('E2E 商事 改');
    // The close icon asks before discarding; keep editing, then save.
    await page.getByRole('link', { name: '閉じる' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: '編集を続ける' }).click();
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL('**/company/master');
    expect((await db.selectFrom('companies').select('company_name').where('company_id', '=', 'E2EM1').executeTakeFirstOrThrow()).company_name).toBe('E2E 商事 改');

    await open(page, `/company/master?company_name=${encodeURIComponent('オンレコマート')}`);
    await page.getByRole('link', { name: '株式会社オンレコマートを削除' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'データを削除' }).click();
    await page.getByText('削除に失敗しました。この会社には店舗が登録されています。').waitFor();
    await open(page, `/company/master?company_name=${encodeURIComponent('E2E')}`);
    await page.getByRole('link', { name: 'E2E 商事 改を削除' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'データを削除' }).click();
    await page.waitForURL((url) => url.pathname === '/company/master' && url.search === '');
    expect(await db.selectFrom('companies').select('company_id').where('company_id', '=', 'E2EM1').executeTakeFirst()).toBeUndefined();
  });

  it('store groups: filters by company, create with company and ID checks, edit, delete in use refused', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    await open(page, '/storegroup/master');
    await page.getByRole('heading', { name: '店舗グループマスタ' }).waitFor();
    await page.getByText('絞り込み').first().click();
    await page.getByLabel('会社', { exact: true }).selectOption({ value: 'MARUYA' });
    await page.waitForURL('**/storegroup/master?*company_id=MARUYA*');
    const maruya = await db.selectFrom('storegroups').select((eb) => eb.fn.countAll<number>().as('n')).where('company_id', '=', 'MARUYA').executeTakeFirstOrThrow();
    await page.getByText(`全${maruya.n}件`).first().waitFor();
    await screenshot(page, 'masters-storegroup-list-filtered');

    await open(page, '/storegroup/master/create');
    await page.getByRole('heading', { name: '新規店舗グループ登録' }).waitFor();
    allowFailedLoads(400);
    await page.getByRole('button', { name: '登録' }).click();
    await page.locator('#field-company_id-error', { hasText: '選択してください' }).waitFor();
    await page.getByLabel('会社').selectOption({ value: 'MARUYA' });
    await page.getByLabel('店舗グループID').fill('MY01');
    await page.getByLabel('店舗グループ名').fill('E2E エリア');
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('既に使用されています').waitFor();
    await page.getByLabel('店舗グループID').fill('EM123X');
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText('5文字以内で入力してください').waitFor();
    await screenshot(page, 'masters-storegroup-create-errors');
    await page.getByLabel('店舗グループID').fill('EM1');
    await page.getByRole('button', { name: '登録' }).click();
    await page.waitForURL('**/storegroup/master');

    await open(page, '/storegroup/master/EM1/edit');
    await page.getByRole('heading', { name: '店舗グループ情報編集' }).waitFor();
    await page.getByLabel('店舗グループ名').fill('E2E エリア 改');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL('**/storegroup/master');

    await open(page, '/storegroup/master?storegroup_name=%E9%96%A2%E6%9D%B1');
    await page.getByRole('link', { name: '関東エリアを削除', exact: true }).first().click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'データを削除' }).click();
    await page.getByText('削除に失敗しました。この店舗グループには店舗が登録されています。').waitFor();
    await screenshot(page, 'masters-storegroup-delete-failed');
    await open(page, `/storegroup/master?storegroup_name=${encodeURIComponent('E2E エリア 改')}`);
    await page.getByRole('link', { name: 'E2E エリア 改を削除' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'データを削除' }).click();
    await page.waitForURL((url) => url.pathname === '/storegroup/master' && url.search === '');
    expect(await db.selectFrom('storegroups').select('storegroup_id').where('storegroup_id', '=', 'EM1').executeTakeFirst()).toBeUndefined();
  });
});
