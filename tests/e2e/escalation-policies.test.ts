import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { allowFailedLoads, launchBrowser, login, newPage, screenshot } from '../support/browser';

// The エスカレーション設定 screen (decision 304): an administrator creates a policy with two
// ordered steps from システム管理, is told the step order rule in Japanese, edits it and deletes
// it; each change is audited as the API's are.

let browser: Browser;
let db: Db;
const PREFIX = 'E2E 夜間エスカレーション';

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
});

afterAll(async () => {
  await db?.deleteFrom('escalation_policies').where('policy_name', 'like', `${PREFIX}%`).execute();
  await db?.destroy();
  await browser?.close();
});

describe('エスカレーション設定 page', () => {
  it('creates a two-step policy for a store group, refuses a step out of order, edits and deletes it', async () => {
    allowFailedLoads(400);
    // Its own name each try (a retried test finds the last try's policy still there).
    const NAME = `${PREFIX} ${crypto.randomUUID().slice(0, 8)}`;
    const group = await db.selectFrom('storegroups').select('storegroup_id').orderBy('storegroup_id').executeTakeFirstOrThrow();
    const usergroup = await db.selectFrom('usergroups').select(['usergroup_id', 'usergroup_name']).orderBy('usergroup_id').executeTakeFirstOrThrow();
    const user = await db.selectFrom('users').select(['user_id', 'user_name']).where('valid_flg', '=', 1).orderBy('user_id').executeTakeFirstOrThrow();

    const page = await newPage(browser, { width: 1366, height: 900 });
    await login(page, 'admin');
    await page.locator('summary[aria-label="システム管理"]').click();
    await page.getByRole('link', { name: 'エスカレーション設定', exact: true }).click();
    await page.waitForURL('**/escalation_policies');
    await page.getByRole('heading', { level: 1, name: 'エスカレーション設定' }).waitFor();

    await page.getByLabel('ポリシー名').fill(NAME);
    await page.getByLabel('店舗グループ', { exact: true }).selectOption(group.storegroup_id);
    const steps = page.getByTestId('escalation-step');
    await steps.nth(0).getByLabel('ユーザーグループ', { exact: true }).selectOption(String(usergroup.usergroup_id));
    await page.getByRole('button', { name: '段階を追加' }).click();
    await expect.poll(() => steps.count()).toBe(2);
    await steps.nth(1).getByLabel('ユーザー', { exact: true }).selectOption(String(user.user_id));
    // The second step at 0 minutes: the API's rule, in Japanese, on the field.
    await page.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => page.getByText('各段階の遅延は前の段階より長くしてください。').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await steps.nth(1).getByLabel('警報発生からの遅延（分）').fill('30');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('ポリシーを保存しました。').waitFor({ timeout: 15_000 });

    const saved = await db.selectFrom('escalation_policies').selectAll().where('policy_name', '=', NAME).executeTakeFirstOrThrow();
    expect(saved.storegroup_id).toBe(group.storegroup_id);
    expect(saved.store_id).toBeNull();
    expect(saved.steps).toEqual([
      { delay_minutes: 0, usergroup_ids: [usergroup.usergroup_id], user_ids: [], store_staff: false, channels: ['mail'], webhook_ids: [], quiet_hours: false },
      { delay_minutes: 30, usergroup_ids: [], user_ids: [user.user_id], store_staff: false, channels: ['mail'], webhook_ids: [], quiet_hours: false },
    ]);
    const audits = () => db.selectFrom('audit_log').select('action').where('target_type', '=', 'escalation_policy').where('target_id', '=', String(saved.policy_id)).execute();
    expect((await audits()).map((row) => row.action)).toEqual(['escalation_policy.save']);

    const list = page.getByRole('region', { name: '登録済みのポリシー' });
    const row = list.getByRole('row').filter({ hasText: NAME });
    await row.getByText('30分後').waitFor();
    await screenshot(page, 'escalation-policies-1366');

    await row.getByRole('link', { name: `${NAME}を編集` }).click();
    await page.getByRole('heading', { name: 'ポリシーの編集' }).waitFor();
    expect(await page.getByLabel('ポリシー名').inputValue()).toBe(NAME);
    await page.getByTestId('escalation-step').nth(1).getByLabel('Webhook', { exact: true }).check();
    await page.getByTestId('escalation-step').nth(1).getByLabel('警報発生からの遅延（分）').fill('45');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('ポリシーを保存しました。').waitFor({ timeout: 15_000 });
    await expect.poll(async () => (await db.selectFrom('escalation_policies').select('steps').where('policy_id', '=', saved.policy_id).executeTakeFirstOrThrow()).steps).toMatchObject([{ delay_minutes: 0 }, { delay_minutes: 45, channels: ['mail', 'webhook'] }]);

    const phone = await newPage(browser, { width: 390, height: 844 });
    await login(phone, 'admin');
    await phone.goto(`/escalation_policies?edit=${saved.policy_id}`);
    await phone.getByRole('heading', { name: 'ポリシーの編集' }).waitFor();
    await screenshot(phone, 'escalation-policies-390');

    page.once('dialog', (dialog) => void dialog.accept());
    await list.getByRole('row').filter({ hasText: NAME }).getByRole('button', { name: `${NAME}を削除` }).click();
    await page.getByText('ポリシーを削除しました。').waitFor({ timeout: 15_000 });
    expect(await db.selectFrom('escalation_policies').select('policy_id').where('policy_id', '=', saved.policy_id).executeTakeFirst()).toBeUndefined();
    expect((await audits()).map((row) => row.action).sort()).toEqual(['escalation_policy.delete', 'escalation_policy.save', 'escalation_policy.save']);
  });
});
