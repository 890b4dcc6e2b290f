import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { AUDIT_ACTION_LABELS } from '../../app/domain/audit';
import { DUPLICATE_FIELD_MESSAGES } from '../../app/domain/store-schemas';
import { audit } from '../../app/models/audit.server';
import { syncStoreListEntries } from '../../app/models/stores.server';
import { createSensor } from '../fixtures/chain';
import { allowFailedLoads, launchBrowser, login, newPage, screenshot } from '../support/browser';

// Issue 30, what a user sees of its fixes: an area manager cannot unlink the case manager's user
// group from a store (decision 277), 監査ログ labels each action, and 警報履歴 shows the simulated
// value that opened an alert (decision 278). The store is ours (E2ESEC01, its company and group),
// deleted afterwards.

let browser: Browser;
let db: Db;
const STORE = 'E2ESEC01';

/** The user group of a demo login with that authority (the case manager's 20, the area manager's 30). */
const groupOf = async (loginId: string, authority: number) =>
  (
    await db
      .selectFrom('user_usergroups as uu')
      .innerJoin('users as u', 'u.user_id', 'uu.user_id')
      .innerJoin('usergroups as g', 'g.usergroup_id', 'uu.usergroup_id')
      .select('g.usergroup_id')
      .where('u.login_id', '=', loginId)
      .where('g.usergroup_authority', '=', authority)
      .executeTakeFirstOrThrow()
  ).usergroup_id;

const linkedGroups = async () => (await db.selectFrom('store_usergroups').select('usergroup_id').where('store_id', '=', STORE).orderBy('usergroup_id').execute()).map((row) => row.usergroup_id);

async function cleanUp() {
  await db.deleteFrom('stores').where('store_id', '=', STORE).execute();
  await db.deleteFrom('storegroups').where('storegroup_id', '=', 'E2ESC').execute();
  await db.deleteFrom('companies').where('company_id', '=', 'E2ESC').execute();
}

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
  await cleanUp();
  await db.insertInto('companies').values({ company_id: 'E2ESC', company_name: 'E2Eセキュリティ商事' }).execute();
  await db.insertInto('storegroups').values({ storegroup_id: 'E2ESC', company_id: 'E2ESC', storegroup_name: 'E2Eセキュリティエリア' }).execute();
  await db
    .insertInto('stores')
    .values({
      store_id: STORE, store_no: '9930001', store_name: 'E2Eセキュリティ店', company_id: 'E2ESC', storegroup_id: 'E2ESC', prefecture_id: 13,
      address: '東京都千代田区丸の内1-1-1', tel_no: '0300000000', opening_date: '2025-04-01', working_state: 1, store_status: 2, gateway_info: `GW-${STORE}`,
    })
    .execute();
  await db.insertInto('store_usergroups').values([{ store_id: STORE, usergroup_id: await groupOf('casemanager', 20) }, { store_id: STORE, usergroup_id: await groupOf('areamanager', 30) }]).execute();
  await syncStoreListEntries(db, [STORE]);
});

afterAll(async () => {
  await cleanUp();
  await db?.destroy();
  await browser?.close();
});

async function fillStore(page: Page, usergroupId: number) {
  await page.getByLabel('会社').selectOption('E2ESC');
  await page.getByLabel('店舗グループ').selectOption('E2ESC');
  await page.getByLabel('店舗ID').fill(STORE);
  await page.getByLabel('店舗番号').fill('9930001');
  await page.getByLabel('店舗名').fill('E2Eセキュリティ店');
  await page.getByLabel('都道府県').selectOption('13');
  await page.getByLabel('住所').fill('東京都千代田区丸の内1-1-1');
  await page.getByLabel('開店日').fill('2025-04-01');
  await page.getByLabel('ユーザーグループ 1').selectOption(String(usergroupId));
  await page.getByLabel('ゲートウェイ情報').fill(`GW-${STORE}`);
}

// Decision 277's unlink rule is the API's (tests/api/store-management.test.ts): the console gives
// managers no store edit.
describe('a store save in the console (decision 282)', () => {
  it('新規店舗作成 with a store ID in use says so and leaves that store as it was', async () => {
    const before = await linkedGroups();
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'areamanager');
    await page.goto('/stores/store_infos/create');
    await page.getByRole('heading', { level: 1, name: '新規店舗作成' }).waitFor();
    await fillStore(page, await groupOf('areamanager', 30));
    allowFailedLoads(400);
    await page.getByRole('button', { name: '登録' }).click();
    await page.getByText(DUPLICATE_FIELD_MESSAGES.store_id).waitFor();
    expect(await linkedGroups()).toEqual(before);
  });
});

describe('監査ログ action labels', () => {
  it('names a notice, a gateway pairing and a measurement comment in Japanese', async () => {
    const admin = await db.selectFrom('users').select('user_id').where('login_id', '=', 'admin').executeTakeFirstOrThrow();
    await db.transaction().execute((trx) =>
      audit(trx, [
        { userId: admin.user_id, action: 'notice.create', targetType: 'notice', targetId: 0, storeId: STORE, details: { before: null, after: { title: 'E2E' } } },
        { userId: null, action: 'gateway.pair', targetType: 'store', targetId: STORE, storeId: STORE, details: { gateway_info: `GW-${STORE}` } },
        { userId: admin.user_id, action: 'measurement_comment.save', targetType: 'sensor', targetId: 1, storeId: STORE, details: { before: null, after: { comment: '扉開放' } } },
      ]),
    );
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await page.goto(`/audit_logs?store_id=${STORE}`);
    const list = page.getByRole('region', { name: '監査ログ一覧' });
    for (const action of ['notice.create', 'gateway.pair', 'measurement_comment.save'] as const) {
      await list.getByRole('cell', { name: AUDIT_ACTION_LABELS[action], exact: true }).waitFor();
    }
    await screenshot(page, 'security-audit-action-labels');
  });
});

describe('警報履歴 (decision 278)', () => {
  it('shows the simulated value that opened a temperature alert, labelled, beside the reading', async () => {
    const sensor = await createSensor(db, STORE, 'AA:BB:CC:DD:EE:5E', { equipment_name: 'E2Eチルド', time_constant: 100 });
    await db
      .insertInto('alert_history')
      .values({ store_id: STORE, equipment_id: sensor, alert_id: 'OE00000001', alert_data1: '15.0', temperature: 15, simulated_temperature: 10.5, lower_limit: 0, upper_limit: 10, started_at: new Date() })
      .execute();
    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await page.goto(`/stores/${STORE}/warning_histories`);
    const row = page.getByRole('row').filter({ hasText: 'E2Eチルド' });
    await row.getByText('推定品温 10.5℃（実測 15.0℃）').waitFor();
    await screenshot(page, 'security-alert-simulated-value');
  });
});
