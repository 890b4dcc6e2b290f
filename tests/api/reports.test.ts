import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { fromJapan, toCompactDateTime } from '~/domain/japan-time';
import { loader as historyLoader } from '~/routes/on-reco+/v1.store_report.history';
import { loader as downloadLoader } from '~/routes/on-reco+/v1.store_report.history.download';
import { action as reportAction, loader as reportLoader } from '~/routes/on-reco+/v1.store_report';
import { claimNextReportJob } from '~/models/report-history.server';
import { REPORT_MAX_ATTEMPTS, makeNextReport, makePendingReports, scheduleRegularReports } from '~/services/reports.server';
import { TEST_PASSWORD, countRows, createSensor, createStore, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { waitUntil } from '../support/processes';
import { call, get, postJson, tokenFor } from '../support/requests';
import { insertMeasurementRows } from '~/models/measurement-buckets.server';

const db = testDb();
beforeEach(() => resetDb());

async function world() {
  await createStore(db, 'S001', { store_name: '新宿店' });
  await createStore(db, 'S002', { store_name: '渋谷店' });
  const fridge = await createSensor(db, 'S001', 'AA:BB:CC:00:00:01', { equipment_name: '冷蔵ケース1', upper_limit: 10, lower_limit: 0 });
  const freezer = await createSensor(db, 'S001', 'AA:BB:CC:00:00:02', { equipment_name: '冷凍庫', upper_limit: -15, lower_limit: -25 });
  const other = await createSensor(db, 'S002', 'AA:BB:CC:00:00:03', { equipment_name: '渋谷 冷蔵' });
  await createUser(db, 'admin', 1);
  await createUser(db, 'store1', 101, { storeIds: ['S001'] });
  await createUser(db, 'store2', 101, { storeIds: ['S002'] });
  const tokens: Record<string, string> = {};
  for (const login of ['admin', 'store1', 'store2']) tokens[login] = await tokenFor(login, TEST_PASSWORD);
  return { tokens, fridge, freezer, other };
}

const day = (y: number, m: number, d: number) => toCompactDateTime(fromJapan(y, m, d)).slice(0, 8);

function payload(over: Record<string, unknown> = {}) {
  return {
    store_id: 'S001',
    setting_no: null,
    setting_name: '',
    file_name: '温度記録',
    report_type: 3,
    regular_report: 0,
    data_interval: 10,
    manual_data_interval: [],
    start_time: `${day(2026, 11, 2)}000000`,
    end_time: `${day(2026, 11, 2)}235000`,
    output_format: 2,
    mail_flg: 0,
    option1: 0,
    option2: 0,
    option3: 0,
    option4: 0,
    option5: 0,
    equipment_ids: [] as number[],
    mail_addresses: [] as string[],
    attachment_flg: 0,
    ...over,
  };
}

const post = (body: unknown, token: string) => call(reportAction, postJson('/on-reco/v1/store_report', body, token));
/** A CSV line's sensor, time, value, 区分 and 上下限外 (lines without quoted cells). */
const cells = (line: string) => {
  const all = line.split(',');
  return [all[2], all[4], all[5], all[6], all[7]];
};
const fieldsOf = async (response: Response) => ((await response.json()) as { fields: Record<string, string> }).fields;

async function insertReadings(equipmentId: number, from: Date, minutes: number, temperature: (i: number) => number | null) {
  const rows = Array.from({ length: minutes }, (_, i) => ({ store_id: 'S001', equipment_id: equipmentId, measured_at: new Date(from.getTime() + i * 60_000), temperature: temperature(i), error: temperature(i) === null }));
  for (let i = 0; i < rows.length; i += 1000) await insertMeasurementRows(db, rows.slice(i, i + 1000));
}

describe('POST /v1/store_report: a sequential report', () => {
  it('answers at once with a history row 作成中; the worker makes the CSV, downloadable with its name', async () => {
    const { tokens, fridge, freezer } = await world();
    await insertReadings(fridge, fromJapan(2026, 11, 2), 24 * 60, (i) => 3 + (i % 7) * 0.11);
    const response = await post(payload({ equipment_ids: [fridge, freezer] }), tokens.store1);
    expect(response.status).toBe(201);
    const { history_no } = await response.json();
    const since = '20261101000000';
    const until = '20261130235959';
    const pending = await (await call(historyLoader, get(`/on-reco/v1/store_report/history?store_id=S001&since=${since}&until=${until}`, tokens.store1))).json();
    // Created now (not in November 2026 unless the clock says so): list all time instead.
    const all = await (await call(historyLoader, get(`/on-reco/v1/store_report/history?store_id=S001&since=20000101000000&until=20991231235959`, tokens.store1))).json();
    expect(all.all_count).toBe(1);
    expect(all.histories[0]).toMatchObject({ history_no, state: 'pending', url: null, file_name: '温度記録', report_type: 3, output_format: 2, start_time: '20261102000000', end_time: '20261102235000' });
    expect(pending.all_count).toBeGreaterThanOrEqual(0);
    expect((await call(downloadLoader, get(`/on-reco/v1/store_report/history/download?history_no=${history_no}`, tokens.store1))).status).toBe(409);

    expect(await makePendingReports(db)).toBe(1);
    const done = await (await call(historyLoader, get(`/on-reco/v1/store_report/history?store_id=S001&since=20000101000000&until=20991231235959`, tokens.store1))).json();
    expect(done.histories[0]).toMatchObject({ state: 'done', url: `/on-reco/v1/store_report/history/download?history_no=${history_no}` });
    const file = await call(downloadLoader, get(`/on-reco/v1/store_report/history/download?history_no=${history_no}`, tokens.store1));
    expect(file.status).toBe(200);
    expect(file.headers.get('Content-Disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('温度記録.csv')}`);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('店舗番号,店舗名,センサー,シリアル番号,日時,温度,区分,上下限外,下限,上限,コメント,記入者');
    // Long format: a row per sensor and time.
    expect(lines).toHaveLength(1 + 2 * 144);
    expect(cells(lines[1])).toEqual(['冷蔵ケース1', '2026/11/02 00:00', '3.0', '測定値', '']);
    expect(cells(lines[2])).toEqual(['冷蔵ケース1', '2026/11/02 00:10', '3.3', '測定値', '']);
    expect(cells(lines[144])).toEqual(['冷蔵ケース1', '2026/11/02 23:50', '3.2', '測定値', '']);
    expect(cells(lines[145])).toEqual(['冷凍庫', '2026/11/02 00:00', '', '欠測', '']);
    // Another store's user: the report "does not exist".
    expect((await call(downloadLoader, get(`/on-reco/v1/store_report/history/download?history_no=${history_no}`, tokens.store2))).status).toBe(404);
  });

  it('a period without data says so in the file', async () => {
    const { tokens, fridge } = await world();
    const { history_no } = await (await post(payload({ equipment_ids: [fridge], data_interval: 720 }), tokens.admin)).json();
    await makePendingReports(db);
    const text = Buffer.from(await (await call(downloadLoader, get(`/on-reco/v1/store_report/history/download?history_no=${history_no}`, tokens.admin))).arrayBuffer()).toString('utf8');
    expect(text).toContain('注記,,,,この期間のデータはありません');
    expect(text.slice(1).trim().split('\r\n').map(cells)).toContainEqual(['冷蔵ケース1', '2026/11/02 12:00', '', '欠測', '']);
  });

  it('given times: duplicates ignored, one row per time and day; ERROR and DEF cells', async () => {
    const { tokens, fridge } = await world();
    await db.updateTable('sensors').set({ def_time: JSON.stringify([{ start: '03:00', end: '04:00' }]) }).where('equipment_id', '=', fridge).execute();
    await insertReadings(fridge, fromJapan(2026, 11, 2), 24 * 60, (i) => (i === 8 * 60 ? null : 4.04));
    const body = payload({ equipment_ids: [fridge], data_interval: null, manual_data_interval: ['08:00', '03:30', '08:00', '12:00'] });
    const { history_no } = await (await post(body, tokens.admin)).json();
    await makePendingReports(db);
    const text = Buffer.from(await (await call(downloadLoader, get(`/on-reco/v1/store_report/history/download?history_no=${history_no}`, tokens.admin))).arrayBuffer()).toString('utf8');
    expect(text.slice(1).trim().split('\r\n').slice(1).map(cells)).toEqual([
      ['冷蔵ケース1', '2026/11/02 03:30', '4.0', '霜取り', ''],
      ['冷蔵ケース1', '2026/11/02 08:00', '', 'ERROR', ''],
      ['冷蔵ケース1', '2026/11/02 12:00', '4.0', '測定値', ''],
    ]);
  });

  it('the CSV is one long table: values outside the limits flagged, the comments (option1) as rows of their own; the summary is the PDF\'s page one', async () => {
    const { tokens, fridge, freezer } = await world();
    await insertReadings(fridge, fromJapan(2026, 11, 2), 24 * 60, (i) => (i >= 600 && i < 605 ? 12.5 : 4.0));
    const admin = await db.selectFrom('users').select('user_id').where('login_id', '=', 'admin').executeTakeFirstOrThrow();
    await db.insertInto('measurement_comments').values({ store_id: 'S001', equipment_id: fridge, measured_at: fromJapan(2026, 11, 2, 10, 1), comment: '扉開放, 補充', user_id: admin.user_id }).execute();
    const body = payload({ equipment_ids: [fridge, freezer], manual_data_interval: ['00:00', '10:02', '12:00'], data_interval: null, option1: 1, option2: 1 });
    const { history_no } = await (await post(body, tokens.admin)).json();
    await makePendingReports(db);
    const text = Buffer.from(await (await call(downloadLoader, get(`/on-reco/v1/store_report/history/download?history_no=${history_no}`, tokens.admin))).arrayBuffer()).toString('utf8');
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines.slice(1, 4).map(cells)).toEqual([
      ['冷蔵ケース1', '2026/11/02 00:00', '4.0', '測定値', ''],
      ['冷蔵ケース1', '2026/11/02 10:02', '12.5', '測定値', '上下限外'],
      ['冷蔵ケース1', '2026/11/02 12:00', '4.0', '測定値', ''],
    ]);
    expect(lines[4]).toMatch(/^S?[^,]*,[^,]*,冷蔵ケース1,[^,]*,2026\/11\/02 10:01,,コメント,,,,"扉開放, 補充",admin さん$/);
    expect(lines.slice(5).map(cells).map((row) => row[0])).toEqual(['冷凍庫', '冷凍庫', '冷凍庫']);
    expect(text).not.toContain('サマリー');
  });
});

describe('POST /v1/store_report: the rules of 001 §5', () => {
  it('refuses each bad input with the field and its Japanese reason, and changes nothing', async () => {
    const { tokens, fridge } = await world();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ regular_report: 1, setting_name: '' }, 'setting_name', '入力してください'],
      [{ file_name: '' }, 'file_name', '入力してください'],
      [{ equipment_ids: [] }, 'equipment_ids', 'センサーを選択してください'],
      [{ start_time: `${day(2026, 11, 2)}120000` }, 'start_time', '期間の指定が違います'],
      [{ report_type: 4, start_time: `${day(2026, 11, 3)}000000`, end_time: `${day(2026, 11, 2)}235000` }, 'end_time', '期間の指定が違います'],
      [{ report_type: 4, end_time: `${day(2027, 2, 2)}235000` }, 'end_time', '期間は3ヶ月以内で指定してください'],
      [{ mail_flg: 1, mail_addresses: [] }, 'mail_addresses', 'メールアドレスを入力してください'],
      [{ mail_flg: 1, mail_addresses: ['tencho@example'] }, 'mail_addresses', 'メールアドレスの形式が違います'],
      [{ data_interval: 'abc' }, 'data_interval', '半角数値を入力してください'],
      [{ data_interval: 0 }, 'data_interval', '10〜720の範囲で入力してください'],
      [{ data_interval: 730 }, 'data_interval', '10〜720の範囲で入力してください'],
      [{ data_interval: 25 }, 'data_interval', '10単位で指定してください'],
      [{ data_interval: null, manual_data_interval: [...Array.from({ length: 48 }, (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`), '23:50'] }, 'manual_data_interval', '指定時刻は48件までです'],
      [{ regular_report: 1, setting_name: '任意', report_type: 4 }, 'report_type', '定期レポートでは任意期間を選択できません'],
    ];
    for (const [over, field, message] of cases) {
      const response = await post(payload({ equipment_ids: [fridge], ...over }), tokens.admin);
      expect(response.status, JSON.stringify(over)).toBe(400);
      expect((await fieldsOf(response))[field], JSON.stringify(over)).toBe(message);
    }
    expect(await countRows(db, 'report_history')).toBe(0);
    expect(await countRows(db, 'regular_reports')).toBe(0);
  });

  it('accepts a free period of up to three months and 48 given times (duplicates ignored)', async () => {
    const { tokens, fridge } = await world();
    const free = await post(payload({ equipment_ids: [fridge], report_type: 4, start_time: `${day(2026, 1, 15)}000000`, end_time: `${day(2026, 4, 14)}235000` }), tokens.admin);
    expect(free.status).toBe(201);
    const times = Array.from({ length: 48 }, (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
    const many = await post(payload({ equipment_ids: [fridge], data_interval: null, manual_data_interval: [...times, '00:00', '23:30'] }), tokens.admin);
    expect(many.status).toBe(201);
  });

  it('derives month (1st to last day) and week (Sunday to Saturday) periods from the start, times 00:00 and 23:50', async () => {
    const { tokens, fridge } = await world();
    await post(payload({ equipment_ids: [fridge], report_type: 1, start_time: `${day(2026, 2, 14)}000000`, end_time: `${day(2026, 2, 14)}235000` }), tokens.admin);
    // 2026-11-04 is a Wednesday: its week is Sunday 1st to Saturday 7th.
    await post(payload({ equipment_ids: [fridge], report_type: 2, start_time: `${day(2026, 11, 4)}000000`, end_time: `${day(2026, 11, 4)}235000` }), tokens.admin);
    const rows = await db.selectFrom('report_history').select(['report_type', 'start_time', 'end_time']).orderBy('history_no').execute();
    expect(rows.map((row) => [row.report_type, toCompactDateTime(row.start_time), toCompactDateTime(row.end_time)])).toEqual([
      [1, '20260201000000', '20260228235000'],
      [2, '20261101000000', '20261107235000'],
    ]);
  });

  it('sends the attachment option only for a month report with mail on', async () => {
    const { tokens, fridge } = await world();
    const base = { equipment_ids: [fridge], regular_report: 1, setting_name: '日報', attachment_flg: 1, mail_flg: 1, mail_addresses: ['tencho@example.com'] };
    await post(payload({ ...base, report_type: 3 }), tokens.admin);
    await post(payload({ ...base, report_type: 1 }), tokens.admin);
    await post(payload({ ...base, report_type: 1, mail_flg: 0 }), tokens.admin);
    const rows = await db.selectFrom('regular_reports').select(['attachment_flg', 'mail_addresses']).orderBy('setting_no').execute();
    expect(rows.map((row) => row.attachment_flg)).toEqual([0, 1, 0]);
    expect(rows[2].mail_addresses).toEqual([]);
  });

  it('at most 10 regular reports per store, with the warning; edit and delete are audited; deleting keeps the produced reports', async () => {
    const { tokens, fridge } = await world();
    for (let i = 1; i <= 10; i++) expect((await post(payload({ equipment_ids: [fridge], regular_report: 1, setting_name: `日報${i}` }), tokens.store1)).status).toBe(201);
    const eleventh = await post(payload({ equipment_ids: [fridge], regular_report: 1, setting_name: '日報11' }), tokens.store1);
    expect(eleventh.status).toBe(400);
    expect((await fieldsOf(eleventh)).setting_no).toBe('定期レポートは10件までです。不要な項目を削除してください');
    const list = await (await call(reportLoader, get('/on-reco/v1/store_report?store_id=S001', tokens.store1))).json();
    expect(list).toHaveLength(10);
    expect(list[0]).toMatchObject({ setting_name: '日報1', create_user_name: 'store1 さん', equipment_ids: [fridge], data_interval: 10, manual_data_interval: [] });
    const settingNo = list[0].setting_no;
    const edited = await post(payload({ equipment_ids: [fridge], regular_report: 1, setting_no: settingNo, setting_name: '朝の日報', data_interval: 60 }), tokens.store1);
    expect(edited.status).toBe(200);
    await db.insertInto('report_history').values({ store_id: 'S001', setting_no: settingNo, file_name: 'x', report_type: 3, start_time: new Date(), end_time: new Date(), output_format: 2, state: 'done' }).execute();
    const deleted = await call(reportAction, postJson('/on-reco/v1/store_report', { store_id: 'S001', setting_no: settingNo }, tokens.store1, 'DELETE'));
    expect(deleted.status).toBe(200);
    expect(await countRows(db, 'regular_reports')).toBe(9);
    expect(await countRows(db, 'report_history')).toBe(1);
    const audits = await db.selectFrom('audit_log').select(['action', 'details']).where('target_type', '=', 'regular_report').orderBy('audit_id').execute();
    expect(audits.map((row) => row.action)).toEqual([...Array(10).fill('regular_report.create'), 'regular_report.update', 'regular_report.delete']);
    expect(audits[10].details).toMatchObject({ before: { setting_name: '日報1', data_interval: 10 }, after: { setting_name: '朝の日報', data_interval: 60 } });
  });

  it('another store\'s user gets 404; a sensor of another store is 404; a removed store keeps its history and stays reportable read-only', async () => {
    const { tokens, fridge, other } = await world();
    expect((await post(payload({ equipment_ids: [fridge] }), tokens.store2)).status).toBe(404);
    expect((await post(payload({ equipment_ids: [other] }), tokens.admin)).status).toBe(404);
    expect((await call(reportLoader, get('/on-reco/v1/store_report?store_id=S001', tokens.store2))).status).toBe(404);
    const { history_no } = await (await post(payload({ equipment_ids: [fridge] }), tokens.admin)).json();
    await makePendingReports(db);
    await db.updateTable('stores').set({ working_state: 2 }).where('store_id', '=', 'S001').execute();
    expect((await call(downloadLoader, get(`/on-reco/v1/store_report/history/download?history_no=${history_no}`, tokens.admin))).status).toBe(200);
    // A past period: a one-off report is made and downloadable (an inspector asks for last year's records).
    const past = await post(payload({ equipment_ids: [fridge] }), tokens.admin);
    expect(past.status).toBe(201);
    await makePendingReports(db);
    const again = await call(downloadLoader, get(`/on-reco/v1/store_report/history/download?history_no=${(await past.json()).history_no}`, tokens.admin));
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).toString('utf8')).toContain('冷蔵ケース1');
    // A period that has not ended, and any regular setting, are refused.
    expect((await post(payload({ equipment_ids: [fridge], start_time: '20991201000000', end_time: '20991201235000' }), tokens.admin)).status).toBe(409);
    expect((await post(payload({ equipment_ids: [fridge], regular_report: 1, setting_name: '日報' }), tokens.admin)).status).toBe(409);
  });

  it('stops the regular reports of a removed store', async () => {
    const { tokens, fridge } = await world();
    expect((await post(payload({ equipment_ids: [fridge], regular_report: 1, setting_name: '日報' }), tokens.admin)).status).toBe(201);
    await db.updateTable('regular_reports').set({ created_at: fromJapan(2026, 11, 1, 9) }).execute();
    await db.updateTable('stores').set({ working_state: 2 }).where('store_id', '=', 'S001').execute();
    expect(await scheduleRegularReports(db, fromJapan(2026, 11, 4, 0, 30))).toBe(0);
    expect(await countRows(db, 'report_history')).toBe(0);
    await db.updateTable('stores').set({ working_state: 1 }).where('store_id', '=', 'S001').execute();
    expect(await scheduleRegularReports(db, fromJapan(2026, 11, 4, 0, 30))).toBe(3);
  });
});

describe('report mail recipients (issue 30 item 3, decision 243)', () => {
  const mailing = (fridge: number, addresses: string[], over: Record<string, unknown> = {}) => payload({ equipment_ids: [fridge], mail_flg: 1, mail_addresses: addresses, ...over });

  it('refuses a store user who mails a report to an address no user of the chain has, and queues nothing', async () => {
    const { tokens, fridge } = await world();
    const outside = await post(mailing(fridge, ['store1@example.com', 'victim@outside.example']), tokens.store1);
    expect(outside.status).toBe(400);
    expect((await fieldsOf(outside)).mail_addresses).toBe('登録ユーザーのメールアドレスのみ指定できます（それ以外の宛先は管理者が設定します）');
    const regular = await post(mailing(fridge, ['victim@outside.example'], { regular_report: 1, setting_name: '日報' }), tokens.store1);
    expect(regular.status).toBe(400);
    expect(await countRows(db, 'report_history')).toBe(0);
    expect(await countRows(db, 'regular_reports')).toBe(0);
  });

  it('lets a store user mail any user of the chain (any case, any of their addresses), even one of another store; the one-off report is audited', async () => {
    const { tokens, fridge } = await world();
    const created = await post(mailing(fridge, ['STORE1@example.com', 'store2@example.com']), tokens.store1);
    expect(created.status).toBe(201);
    const { history_no } = await created.json();
    const audits = await db.selectFrom('audit_log').select(['action', 'target_id', 'store_id', 'details']).where('action', '=', 'report.create').execute();
    expect(audits).toMatchObject([{ target_id: String(history_no), store_id: 'S001', details: { after: { mail_addresses: ['STORE1@example.com', 'store2@example.com'] } } }]);
  });

  it('lets an administrator add outside addresses, which stay when a store user edits the setting', async () => {
    const { tokens, fridge } = await world();
    const created = await post(mailing(fridge, ['auditor@outside.example'], { regular_report: 1, setting_name: '日報' }), tokens.admin);
    expect(created.status).toBe(201);
    const settingNo = (await db.selectFrom('regular_reports').select('setting_no').executeTakeFirstOrThrow()).setting_no;
    const edit = (addresses: string[]) => post(mailing(fridge, addresses, { regular_report: 1, setting_no: settingNo, setting_name: '朝の日報' }), tokens.store1);
    expect((await edit(['auditor@outside.example', 'store1@example.com'])).status).toBe(200);
    expect((await edit(['auditor@outside.example', 'other@outside.example'])).status).toBe(400);
  });
});

describe('the report queue (issue 30 item 4, decision 244)', () => {
  /** Tokens of more store users of S001. */
  async function storeColleagues(count: number): Promise<string[]> {
    const tokens: string[] = [];
    for (let i = 1; i <= count; i++) {
      await createUser(db, `colleague${i}`, 101, { storeIds: ['S001'] });
      tokens.push(await tokenFor(`colleague${i}`, TEST_PASSWORD));
    }
    return tokens;
  }

  it('refuses a sixth waiting one-off report of one user and a twenty-first of one store, with the field and the reason', async () => {
    const { tokens, fridge } = await world();
    for (let i = 0; i < 5; i++) expect((await post(payload({ equipment_ids: [fridge] }), tokens.store1)).status).toBe(201);
    const sixth = await post(payload({ equipment_ids: [fridge] }), tokens.store1);
    expect(sixth.status).toBe(400);
    expect((await fieldsOf(sixth)).regular_report).toBe('作成中のレポートが5件あります。作成が終わってから依頼してください');
    const colleagues = await storeColleagues(4);
    for (const token of colleagues.slice(0, 3)) for (let i = 0; i < 5; i++) expect((await post(payload({ equipment_ids: [fridge] }), token)).status).toBe(201);
    const overStore = await post(payload({ equipment_ids: [fridge] }), colleagues[3]);
    expect(overStore.status).toBe(400);
    expect((await fieldsOf(overStore)).regular_report).toBe('この店舗の作成中のレポートが20件あります。作成が終わってから依頼してください');
    expect(await countRows(db, 'report_history')).toBe(20);
    // Made reports no longer count: the user may ask again.
    await db.updateTable('report_history').set({ state: 'done' }).execute();
    expect((await post(payload({ equipment_ids: [fridge] }), tokens.store1)).status).toBe(201);
  });

  it('makes regular reports first, then one-off reports round-robin between stores, so one store\'s burst does not starve another', async () => {
    const { tokens, fridge, other } = await world();
    for (const token of await storeColleagues(3)) for (let i = 0; i < 5; i++) expect((await post(payload({ equipment_ids: [fridge] }), token)).status).toBe(201);
    expect((await post(payload({ store_id: 'S002', equipment_ids: [other] }), tokens.store2)).status).toBe(201);
    const settingNo = (await (await post(payload({ store_id: 'S002', equipment_ids: [other], regular_report: 1, setting_name: '日報' }), tokens.admin)).json()).setting_no;
    await db.insertInto('report_history').values({ store_id: 'S002', setting_no: settingNo, file_name: '日報', report_type: 3, start_time: new Date(), end_time: new Date(), output_format: 2, state: 'pending' }).execute();
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      const job = await db.transaction().execute(async (trx) => {
        const claimed = await claimNextReportJob(trx, [1, 2], 60_000);
        if (claimed) await trx.updateTable('report_history').set({ state: 'done' }).where('history_no', '=', claimed.historyNo).execute();
        return claimed;
      });
      order.push(`${job!.storeId}${job!.settingNo === null ? '' : ' regular'}`);
    }
    expect(order).toEqual(['S002 regular', 'S001', 'S002']);
  });

  it('gives two workers claiming at once two different jobs, and a third none while both hold theirs', async () => {
    const { tokens, fridge, other } = await world();
    expect((await post(payload({ equipment_ids: [fridge] }), tokens.store1)).status).toBe(201);
    expect((await post(payload({ store_id: 'S002', equipment_ids: [other] }), tokens.store2)).status).toBe(201);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const claimedFirst = new Promise<number>((resolve) => {
      void db.transaction().execute(async (trx) => {
        const job = await claimNextReportJob(trx, [1, 2], 60_000);
        resolve(job!.historyNo);
        await held;
      });
    });
    const first = await claimedFirst;
    const [second, third] = await db.transaction().execute(async (trx) => {
      const job = await claimNextReportJob(trx, [1, 2], 60_000);
      const none = await db.transaction().execute((other) => claimNextReportJob(other, [1, 2], 60_000));
      return [job, none];
    });
    release();
    expect(second).not.toBeNull();
    expect(second!.historyNo).not.toBe(first);
    expect(third).toBeNull();
  });
});

describe('the appendix setting (issue 29, decision 307)', () => {
  it('is kept by a regular setting, listed, and carried into each report it makes; a one-off without the field keeps the appendix', async () => {
    const { tokens, fridge } = await world();
    const created = await post(payload({ equipment_ids: [fridge], regular_report: 1, setting_name: '日報', report_type: 3, output_format: 1, appendix: 0 }), tokens.store1);
    expect(created.status).toBe(201);
    const list = await (await call(reportLoader, get('/on-reco/v1/store_report?store_id=S001', tokens.store1))).json();
    expect(list[0]).toMatchObject({ setting_name: '日報', appendix: 0 });
    await db.updateTable('regular_reports').set({ created_at: fromJapan(2026, 11, 1, 9) }).execute();
    expect(await scheduleRegularReports(db, fromJapan(2026, 11, 2, 0, 30))).toBe(1);
    expect((await post(payload({ equipment_ids: [fridge], output_format: 1 }), tokens.store1)).status).toBe(201);
    const requests = await db.selectFrom('report_history').select(['setting_no', 'request']).orderBy('history_no').execute();
    expect(requests.map((row) => [row.setting_no === null ? 'one-off' : 'regular', (row.request as { appendix?: boolean }).appendix])).toEqual([
      ['regular', false],
      ['one-off', true],
    ]);
    const refused = await post(payload({ equipment_ids: [fridge], appendix: 2 }), tokens.store1);
    expect(refused.status).toBe(400);
    expect(await fieldsOf(refused)).toHaveProperty('appendix');
  });
});

describe('the regular schedule', () => {
  it('makes each closed period once, catching up what was missed, never twice', async () => {
    const { tokens, fridge } = await world();
    const created = await post(payload({ equipment_ids: [fridge], regular_report: 1, setting_name: '日報', report_type: 3 }), tokens.admin);
    const { setting_no } = await created.json();
    await db.updateTable('regular_reports').set({ created_at: fromJapan(2026, 11, 1, 9) }).execute();
    // Down from the 1st to the 4th at 00:30: the 1st, 2nd and 3rd have closed.
    expect(await scheduleRegularReports(db, fromJapan(2026, 11, 4, 0, 30))).toBe(3);
    expect(await scheduleRegularReports(db, fromJapan(2026, 11, 4, 0, 31))).toBe(0);
    const rows = await db.selectFrom('report_history').select(['setting_no', 'start_time']).orderBy('start_time').execute();
    expect(rows.map((row) => [row.setting_no, toCompactDateTime(row.start_time)])).toEqual([
      [setting_no, '20261101000000'],
      [setting_no, '20261102000000'],
      [setting_no, '20261103000000'],
    ]);
  });
});

describe('a hung worker', () => {
  it('loses its claim once its transaction sits idle past the limit: another worker makes the report, once', async () => {
    const { tokens, fridge } = await world();
    await post(payload({ equipment_ids: [fridge] }), tokens.admin);
    let hungClaim: unknown = null;
    let claimed!: () => void;
    const claimDone = new Promise<void>((resolve) => (claimed = resolve));
    let comeBack!: () => void;
    const cameBack = new Promise<void>((resolve) => (comeBack = resolve));
    // A worker that claims the job and comes back to its transaction only after another worker made the report.
    const hung = db.transaction().execute(async (trx) => {
      hungClaim = await claimNextReportJob(trx, [2], 300);
      claimed();
      await cameBack;
      await trx.selectFrom('report_history').select('state').execute();
    });
    const hungEnded = hung.then(
      () => 'committed',
      () => 'ended by PostgreSQL',
    );
    await claimDone;
    expect(hungClaim).not.toBeNull();
    // Claimed: the other workers pass it by until PostgreSQL ends the idle transaction (300 ms).
    expect(await makePendingReports(db)).toBe(0);
    let made = 0;
    await waitUntil(async () => (made = await makePendingReports(db)) > 0, 10_000, 'another worker to make the report');
    expect(made).toBe(1);
    comeBack();
    expect(await hungEnded).toBe('ended by PostgreSQL');
    const rows = await db.selectFrom('report_history').select(['state']).execute();
    expect(rows).toEqual([{ state: 'done' }]);
  });

  it('a report whose work always outlasts the limit is tried REPORT_MAX_ATTEMPTS times, then shown as failed', async () => {
    const { tokens, fridge, freezer } = await world();
    await insertReadings(fridge, fromJapan(2026, 11, 2), 1440, (i) => 4 + (i % 7) / 10);
    await post(payload({ equipment_ids: [fridge, freezer], output_format: 1, option1: 1, option2: 1 }), tokens.admin);
    // A limit of 5 ms: the PDF's render (far longer) leaves the claim idle past it every time.
    for (let attempt = 0; attempt < REPORT_MAX_ATTEMPTS; attempt += 1) expect(await makeNextReport(db, undefined, 5)).toBe(true);
    expect(await makeNextReport(db, undefined, 5)).toBe(false);
    const [row] = await db.selectFrom('report_history').select(['state', 'attempts', 'last_error']).execute();
    expect(row).toMatchObject({ state: 'failed', attempts: REPORT_MAX_ATTEMPTS });
    expect(row.last_error).toMatch(/idle-in-transaction|terminat|Connection/i);
  });
});

describe('report files in the database', () => {
  it('are compressed with lz4 where the server has it (pglz, its default, otherwise)', async () => {
    const { rows: [server] } = await sql<{ lz4: boolean }>`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
    const { rows: [column] } = await sql<{ method: string }>`
      select attcompression as method from pg_attribute where attrelid = 'report_history'::regclass and attname = 'content'`.execute(db);
    expect(column.method).toBe(server.lz4 ? 'l' : '');
  });
});
