import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../app/db/db.server';
import { toCompactDate } from '../../app/domain/japan-time';
import { seesAllStores } from '../../app/domain/roles';
import { appUrl, reportUrl, storeUrl } from '../../app/domain/urls';
import { createOneDayAlertStop, storeOfLogin } from '../fixtures/chain';
import { axeViolations, describeViolations } from '../support/axe';
import { allowFailedLoads, screenshot } from '../support/browser';
import { signedInPages } from '../support/signed-in-pages';

// Issue 33 items 5-7: alert-stop editing below desktop, report creation, store creation; each at
// the width where it was found.

const pages = signedInPages();
const pageAt = pages.pageAt;
let db: Db;
beforeAll(() => {
  db = pages.db();
});

/** Goes to a page and waits for it to be hydrated (the forms' dialogs and buttons need React). */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
}

async function expectNoBlockingAxe(page: Page, what: string) {
  const violations = await axeViolations(page);
  expect(violations, `${what}: ${describeViolations(violations)}`).toEqual([]);
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const today = () => toCompactDate(new Date());

// ---- item 5 -------------------------------------------------------------------------------------

const cell = (page: Page, row: string, start: string) => page.locator(`label[title^="${row} ${start}〜"]`);

describe('alert-stop editing below desktop (item 5)', () => {
  it('on a phone (390) the whole day is reachable with a thumb: 23:30 tapped, set to 22:00〜24:00 and saved', async () => {
    const { store_id: storeId } = await storeOfLogin(db, 'storeuser');
    const before = await db.selectFrom('alert_schedules').select('schedule_id').where('store_id', '=', storeId).execute();
    const page = await pageAt(390, 844, 'admin');
    try {
      await open(page, storeUrl.alertStopEdit(storeId, today(), today(), null));
      const last = cell(page, '店舗全体', '23:30');
      // The last cell of the day is on the screen, not behind a sideways scroll, and big enough to tap.
      const box = (await last.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.width).toBeGreaterThanOrEqual(24);
      expect(box.height).toBeGreaterThanOrEqual(24);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, 'field-forms-alert-stop-editor-390');
      await expectNoBlockingAxe(page, 'alert-stop editor at 390');

      await last.click();
      const dialog = page.getByRole('dialog', { name: '警報停止時間の設定' });
      await dialog.waitFor();
      await dialog.getByLabel('開始').selectOption(String(22 * 60));
      await dialog.getByLabel('終了').selectOption('0');
      await screenshot(page, 'field-forms-alert-stop-dialog-390');
      await dialog.getByRole('button', { name: '決定' }).click();
      await dialog.waitFor({ state: 'detached' });
      // The row says what is set, in words, beside the cells.
      await expect(page.getByTestId('grid-row-ranges').first().textContent()).resolves.toBe('22:00〜24:00');
      for (const start of ['22:00', '22:30', '23:00', '23:30']) expect(await cell(page, '店舗全体', start).locator('input').isChecked()).toBe(true);
      await screenshot(page, 'field-forms-alert-stop-set-390');
      await page.getByRole('button', { name: '保存' }).click();
      await page.waitForURL(`**${storeUrl.alertStops(storeId, today(), today())}`);
      const saved = await db
        .selectFrom('alert_schedule_times')
        .select(['start_minute', 'end_minute'])
        .where('store_id', '=', storeId)
        .where('schedule_id', 'not in', before.length > 0 ? before.map((row) => row.schedule_id) : [0])
        .execute();
      expect(saved).toEqual([{ start_minute: 22 * 60, end_minute: 24 * 60 }]);
    } finally {
      await db.deleteFrom('alert_schedules').where('store_id', '=', storeId).where('schedule_id', 'not in', before.length > 0 ? before.map((row) => row.schedule_id) : [0]).execute();
    }
  });

  it('at 768 px the editor (per sensor), the calendar and a day\'s list do not overflow the page', async () => {
    const { store_id: storeId } = await storeOfLogin(db, 'storeuser');
    const page = await pageAt(768, 1024, 'admin');
    await open(page, storeUrl.alertStopEdit(storeId, today(), today(), null));
    await page.getByLabel('センサ別').check();
    const sensor = await db.selectFrom('sensors').select('equipment_name').where('store_id', '=', storeId).where('disp_flg', '=', 1).orderBy('location_no', 'desc').executeTakeFirstOrThrow();
    const last = cell(page, sensor.equipment_name, '23:30');
    await last.waitFor();
    const box = (await last.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(768);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'field-forms-alert-stop-editor-768');
    await expectNoBlockingAxe(page, 'alert-stop editor (per sensor) at 768');

    await open(page, storeUrl.sensorSettings(storeId, { tab: 'alert-stop' }));
    await page.getByTestId('calendar-title').waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'field-forms-alert-stop-calendar-768');
    await expectNoBlockingAxe(page, 'alert-stop calendar at 768');

    // A day of the calendar opens its list, which fits too.
    await page.locator('a[data-day]').first().click();
    await page.getByRole('heading', { name: '警報停止時間一覧' }).waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'field-forms-alert-stop-list-768');
  });

  it('the calendar on a phone (390) marks a stop day on one line, named in full for screen readers, with a legend', async () => {
    const { store_id: storeId } = await storeOfLogin(db, 'storeuser');
    const day = today();
    const scheduleId = await createOneDayAlertStop(db, storeId, day);
    try {
      const page = await pageAt(390, 844, 'admin');
      await open(page, storeUrl.sensorSettings(storeId, { tab: 'alert-stop' }));
      const link = page.locator(`a[data-day="${day}"]`);
      await expect(link.getAttribute('aria-label')).resolves.toMatch(/警報停止時間帯あり$/);
      const mark = page.locator(`td:has(a[data-day="${day}"]) [data-testid="stop-mark"]`);
      const shown = (await mark.innerText()).trim();
      expect(shown).toBe('停止');
      // One line: no taller than one line of its 11 px text (停止あり printed one character a line was four).
      const { height, lineHeight } = await mark.evaluate((element) => ({ height: element.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(element).lineHeight) }));
      expect(height).toBeLessThanOrEqual(lineHeight * 1.5);
      await page.getByText('停止: 警報停止時間帯あり').waitFor();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, 'field-forms-alert-stop-calendar-390');
      await expectNoBlockingAxe(page, 'alert-stop calendar at 390');
    } finally {
      await db.deleteFrom('alert_schedules').where('schedule_id', '=', scheduleId).execute();
    }
  });
});

// ---- item 6 -------------------------------------------------------------------------------------

describe('report creation (item 6)', () => {
  it('selects all sensors and clears them, mails the creating user by default so the first save works (390 px, store user)', async () => {
    const { store_id: storeId } = await storeOfLogin(db, 'storeuser');
    const page = await pageAt(390, 844, 'storeuser');
    await open(page, reportUrl.create(storeId));
    // Mail on (001 §4), to the user's own address rather than to nobody.
    await expect(page.getByLabel('受信する').isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('宛先メールアドレス（1行に1件）').inputValue()).resolves.toBe('storeuser@example.com');
    const sensors = page.locator('input[name="equipment_ids"]');
    const count = await sensors.count();
    expect(count).toBeGreaterThan(1);
    await page.getByRole('button', { name: 'すべて選択' }).click();
    for (let index = 0; index < count; index += 1) await expect(sensors.nth(index).isChecked()).resolves.toBe(true);
    await page.getByText(`${count} / ${count} 件選択`).waitFor();
    await screenshot(page, 'field-forms-report-all-390');
    await page.getByRole('button', { name: '選択を解除' }).click();
    for (let index = 0; index < count; index += 1) await expect(sensors.nth(index).isChecked()).resolves.toBe(false);
    await page.getByRole('button', { name: 'すべて選択' }).click();
    await page.getByLabel('ファイル名').fill('全センサー月報');
    await expectNoBlockingAxe(page, 'report create at 390');
    const before = await db.selectFrom('report_history').select('history_no').where('store_id', '=', storeId).execute();
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByRole('alertdialog', { name: 'レポートを作成しました。作成とメール配信には数分かかる場合があります。' }).waitFor();
    await screenshot(page, 'field-forms-report-saved-390');
    const made = await db
      .selectFrom('report_history')
      .select('request')
      .where('store_id', '=', storeId)
      .where('history_no', 'not in', before.length > 0 ? before.map((row) => row.history_no) : [0])
      .execute();
    expect(made).toHaveLength(1);
    expect(JSON.stringify(made[0].request)).toContain('storeuser@example.com');
  });

  it('shows a missing address under the address field, not under another control (390 px)', async () => {
    allowFailedLoads(400);
    const { store_id: storeId } = await storeOfLogin(db, 'storeuser');
    const page = await pageAt(390, 844, 'storeuser');
    await open(page, reportUrl.create(storeId));
    await page.getByLabel('ファイル名').fill('宛先なし');
    await page.locator('input[name="equipment_ids"]').first().check();
    const address = page.getByLabel('宛先メールアドレス（1行に1件）');
    await address.fill('');
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('入力に誤りがあります').waitFor();
    const error = page.locator('#mail_addresses-error');
    await expect(error.textContent()).resolves.toBe('メールアドレスを入力してください');
    await expect(address.getAttribute('aria-describedby')).resolves.toBe('mail_addresses-error');
    await expect(address.getAttribute('aria-invalid')).resolves.toBe('true');
    // Right under the address box, above the attachment choice that follows it.
    const addressBox = (await address.boundingBox())!;
    const errorBox = (await error.boundingBox())!;
    const attachmentBox = (await page.getByLabel('レポートを添付する').boundingBox())!;
    expect(errorBox.y).toBeGreaterThanOrEqual(addressBox.y + addressBox.height - 1);
    expect(errorBox.y - (addressBox.y + addressBox.height)).toBeLessThan(16);
    expect(errorBox.y + errorBox.height).toBeLessThanOrEqual(attachmentBox.y);
    await error.scrollIntoViewIfNeeded();
    await screenshot(page, 'field-forms-report-address-error-390');
  });
});

// ---- item 7 -------------------------------------------------------------------------------------

/** Each user group's companies as decision 271 reads them: its stores' and its members'. */
async function groupCompanies(): Promise<Map<number, Set<string>>> {
  const rows = [
    ...(await db.selectFrom('store_usergroups as su').innerJoin('stores as s', 's.store_id', 'su.store_id').select(['su.usergroup_id', 's.company_id']).execute()),
    ...(await db.selectFrom('user_usergroups as uu').innerJoin('users as u', 'u.user_id', 'uu.user_id').select(['uu.usergroup_id', 'u.company_id']).where('u.company_id', 'is not', null).execute()),
  ];
  const companies = new Map<number, Set<string>>();
  for (const row of rows) companies.set(row.usergroup_id, (companies.get(row.usergroup_id) ?? new Set()).add(row.company_id!));
  return companies;
}

describe('store creation (item 7)', () => {
  it('offers the user groups of the chosen company only, and after saving says what comes next (1366 px)', async () => {
    const companies = await groupCompanies();
    const groups = await db.selectFrom('usergroups').select(['usergroup_id', 'usergroup_name', 'usergroup_authority']).execute();
    const page = await pageAt(1366, 900, 'admin');
    await open(page, appUrl.storeCreate);
    const offered = async () => (await page.getByLabel('ユーザーグループ 1').locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))).filter(Boolean).map(Number);
    const all = await offered();
    for (const [company, other] of [['ONRECO', 'MARUYA'], ['MARUYA', 'ONRECO']] as const) {
      await page.getByLabel('会社').selectOption(company);
      const shown = await offered();
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.length).toBeLessThan(all.length);
      for (const id of shown) {
        const of = companies.get(id);
        expect(of === undefined || of.has(company), `group ${id} offered for ${company}`).toBe(true);
      }
      // Every group of the other company alone is gone.
      const otherOnly = groups.filter((group) => !seesAllStores(group.usergroup_authority) && companies.get(group.usergroup_id)?.size === 1 && companies.get(group.usergroup_id)?.has(other));
      expect(otherOnly.length).toBeGreaterThan(0);
      expect(shown.filter((id) => otherOnly.some((group) => group.usergroup_id === id))).toEqual([]);
    }
    await screenshot(page, 'field-forms-store-groups-1366');

    // A group of ONRECO only, chosen, is cleared when the company becomes MARUYA.
    await page.getByLabel('会社').selectOption('ONRECO');
    const onrecoOnly = groups.find((group) => !seesAllStores(group.usergroup_authority) && companies.get(group.usergroup_id)?.size === 1 && companies.get(group.usergroup_id)?.has('ONRECO'))!;
    await page.getByLabel('ユーザーグループ 1').selectOption(String(onrecoOnly.usergroup_id));
    await page.getByLabel('会社').selectOption('MARUYA');
    await expect(page.getByLabel('ユーザーグループ 1').inputValue()).resolves.toBe('');

    // A new store of ONRECO: saved, the confirmation names the next steps as links.
    await page.getByLabel('会社').selectOption('ONRECO');
    await page.getByLabel('店舗グループ').selectOption({ index: 1 });
    await page.getByLabel('店舗ID').fill('E2EFF01');
    await page.getByLabel('店舗番号').fill('98765071');
    await page.getByLabel('店舗名').fill('E2E 次の手順店');
    await page.getByLabel('都道府県').selectOption('13');
    await page.getByLabel('住所').fill('東京都港区芝公園4-2-8');
    await page.getByLabel('開店日').fill('2026-04-01');
    await page.getByLabel('ユーザーグループ 1').selectOption(String(onrecoOnly.usergroup_id));
    await page.getByLabel('ゲートウェイ情報').fill('GW-E2EFF01');
    try {
      await page.getByRole('button', { name: '登録' }).click();
      const dialog = page.getByRole('alertdialog', { name: '店舗を登録しました' });
      await dialog.waitFor();
      await expect(dialog.textContent()).resolves.toContain('E2E 次の手順店');
      const pin = dialog.getByRole('link', { name: '店舗管理でPINコードを発行する' });
      await expect(pin.getAttribute('href')).resolves.toBe(storeUrl.management('E2EFF01'));
      await expect(dialog.getByRole('link', { name: '設定のセンサ情報で登録する' }).getAttribute('href')).resolves.toBe(storeUrl.sensorSettings('E2EFF01', { tab: 'sensors' }));
      await expect(dialog.getByRole('link', { name: '温度画面へ' }).getAttribute('href')).resolves.toBe(storeUrl.sensors('E2EFF01', 'image'));
      await screenshot(page, 'field-forms-store-created-1366');
      await expectNoBlockingAxe(page, 'store created dialog');
      await pin.click();
      await page.waitForURL(`**${storeUrl.management('E2EFF01')}`);
      await page.getByRole('heading', { name: 'ゲートウェイPINコード' }).waitFor();
      await screenshot(page, 'field-forms-store-created-pin-1366');
    } finally {
      await db.deleteFrom('stores').where('store_id', '=', 'E2EFF01').execute();
    }
  });

  it('the store\'s new-user page preselects the store\'s store-user groups only: no staff group (linked before decision 245), no manager group (1366 px)', async () => {
    const { store_id: storeId } = await storeOfLogin(db, 'storeuser');
    const staff = await db.selectFrom('usergroups').select(['usergroup_id', 'usergroup_name']).where('usergroup_name', '=', 'システム管理者グループ').executeTakeFirstOrThrow();
    const storeGroups = await db
      .selectFrom('store_usergroups as su')
      .innerJoin('usergroups as g', 'g.usergroup_id', 'su.usergroup_id')
      .select(['g.usergroup_id', 'g.usergroup_authority'])
      .where('su.store_id', '=', storeId)
      .execute();
    expect(storeGroups.some((group) => group.usergroup_authority < 101)).toBe(true);
    // Linked as a store created before the rule could have been.
    await db.insertInto('store_usergroups').values({ store_id: storeId, usergroup_id: staff.usergroup_id }).execute();
    try {
      const page = await pageAt(1366, 900, 'admin');
      await open(page, storeUrl.userCreate(storeId));
      const chosen = await page.locator('select[name="usergroup"]').evaluateAll((selects) => selects.map((select) => (select as HTMLSelectElement).value));
      expect(chosen).not.toContain(String(staff.usergroup_id));
      expect(chosen.sort()).toEqual(storeGroups.filter((group) => group.usergroup_authority === 101).map((group) => String(group.usergroup_id)).sort());
      await screenshot(page, 'field-forms-store-user-create-1366');
    } finally {
      await db.deleteFrom('store_usergroups').where('store_id', '=', storeId).where('usergroup_id', '=', staff.usergroup_id).execute();
    }
  });
});
