import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { createSensor, createStore, createUser, issuePin, TEST_PASSWORD } from '../fixtures/chain';
import { launchBrowser, newPage, screenshot } from '../support/browser';
import { minuteAgo, pairOverApi, postReading } from '../support/gateway-api';
import { startWorker, stopProcess, waitUntil } from '../support/processes';
import { startSmtpServer } from '../support/smtp';

// Issue 28's second Done-when test: nobody acknowledges, and the area manager is told at the step's
// delay (within 30 s of it, not before), across the real processes: a reading through the gateway
// readings call on the console, the alerts worker's escalation job, a real SMTP server. The manager
// then follows the mail's link signed out, signs in and is back on the alert's graph (390 and 1366 px).

const db = createDb(inject('databaseUrl'), 2);
const base = inject('baseUrl');
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let browser: Browser;
beforeAll(async () => {
  smtp = await startSmtpServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await smtp.close();
  await browser?.close();
  await db.destroy();
});

const STEP_DELAY_MS = 60_000;
// A retry makes a store, a sensor and users of its own: the first attempt's are still there.
let attempts = 0;

describe('escalation when nobody acknowledges', () => {
  it('tells the store staff at once and the area manager at the step\'s delay, and the manager\'s link survives sign-in', async () => {
    attempts += 1;
    const storeId = `ESC${attempts}`;
    const serialNo = `AA:BB:CC:DD:F${attempts}:28`;
    await createStore(db, storeId);
    await createSensor(db, storeId, serialNo, { equipment_name: '冷凍ケース1', guard_time: null, lower_limit: -25, upper_limit: -15 });
    const token = await pairOverApi(base, storeId, await issuePin(db, storeId, '282828'));
    await createUser(db, `esc-staff${attempts}`, 101, { storeIds: [storeId], mail: `esc-staff${attempts}@example.com` });
    const manager = await createUser(db, `esc-area${attempts}`, 30, { storeIds: [storeId], mail: `esc-area${attempts}@example.com` });
    const steps = [
      { delay_minutes: 0, store_staff: true, channels: ['mail'] },
      { delay_minutes: STEP_DELAY_MS / 60_000, user_ids: [manager], channels: ['mail'] },
    ];
    await db.insertInto('escalation_policies').values({ policy_name: `夜間 ${storeId}`, storegroup_id: null, store_id: storeId, alert_codes: ['OE00000001'], steps: JSON.stringify(steps) }).execute();
    const to = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
    const worker = startWorker({ DATABASE_URL: inject('databaseUrl'), SMTP_URL: smtp.url, ONRECO_PUBLIC_URL: base }, 'alerts');
    try {
      await worker.started;
      expect((await postReading(base, token, serialNo, minuteAgo(0), -5.0)).accepted).toBe(1);
      const alert = await db.selectFrom('alert_history').select(['started_at', 'acknowledged_at']).where('store_id', '=', storeId).executeTakeFirstOrThrow();
      const due = alert.started_at.getTime() + STEP_DELAY_MS;
      await waitUntil(async () => to(`esc-staff${attempts}@example.com`).length > 0, 30_000, 'the store staff\'s mail');
      expect(to(`esc-area${attempts}@example.com`)).toEqual([]);
      await waitUntil(async () => to(`esc-area${attempts}@example.com`).length > 0, STEP_DELAY_MS + 60_000, 'the area manager\'s mail');
      const [mail] = to(`esc-area${attempts}@example.com`);
      const lateMs = mail.receivedAt - due;
      console.log(`[escalation] the area manager's mail came ${lateMs} ms after the step's delay`);
      expect(lateMs, 'not before the delay').toBeGreaterThanOrEqual(0);
      expect(lateMs, 'within 30 s of the delay').toBeLessThan(30_000);
      expect(mail.subject).toContain('温度異常');
      // Still nobody acknowledged; the staff were told once (no repeat of step 0).
      expect((await db.selectFrom('alert_history').select('acknowledged_at').where('store_id', '=', storeId).executeTakeFirstOrThrow()).acknowledged_at).toBeNull();
      expect(to(`esc-staff${attempts}@example.com`)).toHaveLength(1);
      const link = /https?:\/\/\S+temp_graphs\S*/.exec(mail.text)?.[0];
      expect(link).toBeDefined();
      for (const [width, height] of [[390, 844], [1366, 900]]) {
        const page = await newPage(browser, { width, height });
        await page.goto(link!);
        await page.waitForURL('**/login**');
        await page.getByLabel('ID').fill(`esc-area${attempts}`);
        await page.getByLabel('PASSWORD').fill(TEST_PASSWORD);
        await page.getByRole('button', { name: 'LOGIN' }).click();
        await page.waitForURL(`**/stores/${storeId}/temp_graphs?**`);
        await page.getByRole('heading', { level: 1, name: '温度グラフ' }).waitFor();
        await page.getByText('冷凍ケース1').first().waitFor();
        await page.getByTestId('graph-loading').first().waitFor({ state: 'detached' });
        await page.locator('[data-testid="graph-panel"] canvas').first().waitFor();
        await screenshot(page, `escalation-manager-graph-${width}`);
        // The manager's own quiet hours, from the user menu's page (decision 315).
        await page.goto('/quiet_hours/edit');
        await page.getByRole('heading', { level: 1, name: '通知しない時間帯' }).waitFor();
        await page.getByLabel('開始').fill('22:00');
        await page.getByLabel('終了').fill('06:00');
        await page.getByRole('button', { name: '保存' }).click();
        await page.getByText('通知しない時間帯を保存しました。').waitFor();
        await screenshot(page, `quiet-hours-${width}`);
        await page.close();
      }
      const saved = await db.selectFrom('users').select(['quiet_start_minute', 'quiet_end_minute']).where('user_id', '=', manager).executeTakeFirstOrThrow();
      expect(saved).toEqual({ quiet_start_minute: 22 * 60, quiet_end_minute: 6 * 60 });
    } finally {
      await stopProcess(worker);
    }
  }, 240_000);

  it('stops the escalation when the store user acknowledges with a corrective action (the acknowledge call), and shows it on the graph and in the HACCP record', async () => {
    attempts += 1;
    const storeId = `ESCA${attempts}`;
    const serialNo = `AA:BB:CC:DD:E${attempts}:29`;
    await createStore(db, storeId);
    await createSensor(db, storeId, serialNo, { equipment_name: '冷凍ケース2', guard_time: null, lower_limit: -25, upper_limit: -15 });
    const token = await pairOverApi(base, storeId, await issuePin(db, storeId, '292929'));
    await createUser(db, `esca-staff${attempts}`, 101, { storeIds: [storeId], mail: `esca-staff${attempts}@example.com` });
    const manager = await createUser(db, `esca-area${attempts}`, 30, { storeIds: [storeId], mail: `esca-area${attempts}@example.com` });
    const steps = [
      { delay_minutes: 0, store_staff: true, channels: ['mail'] },
      { delay_minutes: STEP_DELAY_MS / 60_000, user_ids: [manager], channels: ['mail'] },
    ];
    await db.insertInto('escalation_policies').values({ policy_name: `夜間 ${storeId}`, storegroup_id: null, store_id: storeId, alert_codes: ['OE00000001'], steps: JSON.stringify(steps) }).execute();
    const to = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
    const worker = startWorker({ DATABASE_URL: inject('databaseUrl'), SMTP_URL: smtp.url, ONRECO_PUBLIC_URL: base }, 'alerts');
    try {
      await worker.started;
      expect((await postReading(base, token, serialNo, minuteAgo(0), -5.0)).accepted).toBe(1);
      const alert = await db.selectFrom('alert_history').select(['alert_history_id', 'started_at']).where('store_id', '=', storeId).executeTakeFirstOrThrow();
      await waitUntil(async () => to(`esca-staff${attempts}@example.com`).length > 0, 30_000, 'the store staff\'s mail');
      const signIn = await fetch(`${base}/on-reco/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: `esca-staff${attempts}`, password: TEST_PASSWORD }) });
      const { access_token } = (await signIn.json()) as { access_token: string };
      const acknowledged = await fetch(`${base}/on-reco/v1/alert_history/acknowledge`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ store_id: storeId, alert_history_id: Number(alert.alert_history_id), corrective_action_text: '扉を閉めて商品を移動', note: '霜取り後に再確認' }),
      });
      expect(acknowledged.status).toBe(200);
      // Past the step's delay with the worker running (its job runs every 5 s): the manager hears nothing.
      const due = alert.started_at.getTime() + STEP_DELAY_MS;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now()) + 15_000));
      expect(to(`esca-area${attempts}@example.com`)).toEqual([]);
      expect(await db.selectFrom('alert_escalations').select('step_no').where('alert_history_id', '=', alert.alert_history_id).execute()).toEqual([{ step_no: 0 }]);
      for (const [width, height] of [[390, 844], [1366, 900]]) {
        const page = await newPage(browser, { width, height });
        await page.goto('/login');
        await page.getByLabel('ID').fill(`esca-staff${attempts}`);
        await page.getByLabel('PASSWORD').fill(TEST_PASSWORD);
        await page.getByRole('button', { name: 'LOGIN' }).click();
        await page.waitForURL('**/dashboard');
        await page.goto(`/stores/${storeId}/temp_graphs`);
        await page.getByTestId('graph-loading').first().waitFor({ state: 'detached' });
        const onGraph = page.getByTestId('acknowledged-alerts').getByTestId('alert-acknowledgement');
        await expect.poll(async () => onGraph.textContent()).toContain('扉を閉めて商品を移動（メモ: 霜取り後に再確認）');
        expect(await onGraph.textContent()).toContain(`esca-staff${attempts} さん`);
        await screenshot(page, `acknowledged-graph-${width}`);
        await page.goto(`/stores/${storeId}/haccp_records`);
        await expect.poll(async () => (await page.getByTestId('haccp-acknowledgement').first().textContent()) ?? '').toContain('扉を閉めて商品を移動');
        await screenshot(page, `acknowledged-haccp-${width}`);
        await page.close();
      }
    } finally {
      await stopProcess(worker);
    }
  }, 240_000);
});
