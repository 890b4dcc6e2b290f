import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { fromJapan, japanParts, toCompactDate, toCompactDateTime } from '~/domain/japan-time';
import { keptFrom, retentionAt } from '~/domain/retention';
import { measurementRetentionJob } from '~/jobs/retention.server';
import { ensureMeasurementPartitions, listMonthPartitions } from '~/models/measurement-partitions.server';
import { action as loginAction } from '~/routes/_auth+/login';
import { loader as pageLoader } from '~/routes/_app+/stores.$storeId+/temp_graphs';
import { loader as consoleCsvLoader } from '~/routes/_app+/stores.$storeId+/temp_graphs[.]csv';
import { loader as haccpLoader } from '~/routes/_app+/stores.$storeId+/haccp_records';
import { loader as haccpPdfLoader } from '~/routes/_app+/stores.$storeId+/haccp_records[.]pdf';
import { loader as downloadLoader } from '~/routes/on-reco+/v1.store_report.history.download';
import { action as reportAction } from '~/routes/on-reco+/v1.store_report';
import { applyRetention } from '~/services/retention.server';
import { makePendingReports } from '~/services/reports.server';
import { TEST_PASSWORD, countRows, createSensor, createStore, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, postForm, postJson, tokenFor } from '../support/requests';
import { insertMeasurementRows } from '~/models/measurement-buckets.server';

// Retention (issue 17 part 6, docs/decisions/188-retention.md): the worker drops whole month
// partitions beyond retention, readings after 24 months and their 10-minute buckets after 60 by
// default; the graph page, its CSV and the reports say so instead of showing nothing.

const db = testDb();
const log = pino({ level: 'silent' });
beforeEach(() => resetDb());

async function world() {
  await createStore(db, 'S001');
  const fridge = await createSensor(db, 'S001', 'AA:BB:CC:00:0A:01', { equipment_name: '冷蔵ケース', lower_limit: 0, upper_limit: 10 });
  await createUser(db, 'admin', 1);
  return { fridge };
}

/** One reading at each instant, with its bucket, as ingest writes it. */
async function insertReadings(equipmentId: number, instants: Date[], temperature = 4.2) {
  await insertMeasurementRows(db, instants.map((at) => ({ store_id: 'S001', equipment_id: equipmentId, measured_at: at, temperature, error: false })));
}

const names = async (parent: 'measurements' | 'measurement_buckets') => (await listMonthPartitions(db, parent)).map((p) => p.name);
const mid = (year: number, month: number) => fromJapan(year, month, 15, 12);

async function countWhere(table: string, column: string, from: Date, to: Date): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where ${sql.ref(column)} >= ${from} and ${sql.ref(column)} < ${to}`.execute(db);
  return rows[0].n;
}

describe('the retention job', () => {
  it('drops exactly the month partitions wholly beyond retention, keeps the buckets of dropped readings, and empties the default partitions beyond it', async () => {
    const { fridge } = await world();
    // Old months of their own, far from what other test files create: 2003-01…06 and 2006-01…06.
    await ensureMeasurementPartitions(db, fromJapan(2003, 1, 1), fromJapan(2003, 6, 1));
    await ensureMeasurementPartitions(db, fromJapan(2006, 1, 1), fromJapan(2006, 6, 1));
    const months = [1, 2, 3, 4, 5, 6].flatMap((m) => [mid(2003, m), mid(2006, m)]);
    // 2002-12 and 2005-12 have no partition: those readings (and buckets) sit in the default partitions.
    await insertReadings(fridge, [...months, mid(2002, 12), mid(2005, 12)]);
    await db.insertInto('measurement_comments').values([mid(2003, 2), mid(2006, 2)].map((at) => ({ store_id: 'S001', equipment_id: fridge, measured_at: at, comment: '確認済み' }))).execute();
    const before = { readings: await names('measurements'), buckets: await names('measurement_buckets') };

    // 2008-04-15: readings are kept from 2006-04-01 (24 months), buckets from 2003-04-01 (60).
    await measurementRetentionJob.run({ db, now: fromJapan(2008, 4, 15, 3, 37), log });

    const readingsGone = ['200301', '200302', '200303', '200304', '200305', '200306', '200601', '200602', '200603'].map((m) => `measurements_${m}`);
    const bucketsGone = ['200301', '200302', '200303'].map((m) => `measurement_buckets_${m}`);
    expect(before.readings).toEqual(expect.arrayContaining(readingsGone));
    expect(await names('measurements')).toEqual(before.readings.filter((name) => !readingsGone.includes(name)));
    expect(await names('measurement_buckets')).toEqual(before.buckets.filter((name) => !bucketsGone.includes(name)));
    // No table left behind detached.
    const { rows: leftovers } = await sql<{ n: number }>`select count(*)::int as n from pg_class where relname = any(${[...readingsGone, ...bucketsGone]})`.execute(db);
    expect(leftovers[0].n).toBe(0);

    // Readings: only April to June 2006 are left (the default partition's 2002-12 and 2005-12 deleted).
    expect(await countRows(db, 'measurements')).toBe(3);
    expect(await countWhere('measurements', 'measured_at', fromJapan(2006, 4, 1), fromJapan(2006, 7, 1))).toBe(3);
    // Buckets outlive the readings: 2003-04…06, 2005-12 (default partition) and all of 2006.
    expect(await countWhere('measurement_buckets', 'bucket', fromJapan(2003, 4, 1), fromJapan(2003, 7, 1))).toBe(3);
    expect(await countWhere('measurement_buckets', 'bucket', fromJapan(2005, 12, 1), fromJapan(2006, 7, 1))).toBe(7);
    expect(await countRows(db, 'measurement_buckets')).toBe(10);
    // Comments go with the buckets.
    expect((await db.selectFrom('measurement_comments').select('measured_at').execute()).map((row) => row.measured_at)).toEqual([mid(2006, 2)]);

    // A second pass (the next day, or another worker) finds nothing more to do.
    expect(await applyRetention(db, retentionAt(fromJapan(2008, 4, 16), { readings: 24, buckets: 60 }))).toEqual({ dropped: [], defaultRows: 0, comments: 0 });
    // Nor does a month still partly within (readings 2006-04, buckets 2003-04) go before the calendar month turns.
    expect((await applyRetention(db, retentionAt(fromJapan(2008, 5, 1, 0, 0, 0, -1), { readings: 24, buckets: 60 }))).dropped).toEqual([]);
    expect((await applyRetention(db, retentionAt(fromJapan(2008, 5, 1), { readings: 24, buckets: 60 }))).dropped).toEqual(['measurements_200604', 'measurement_buckets_200304']);
  });

  it('is one of the worker jobs, run at start', async () => {
    const { JOBS } = await import('~/jobs/worker.server');
    expect(JOBS).toContain(measurementRetentionJob);
    expect(measurementRetentionJob.runOnStart).toBe(true);
  });
});

// The pages read the real clock: periods are placed from the retention boundaries of today.
const now = new Date();
const readingsKept = keptFrom(now, 24);
const bucketsKept = keptFrom(now, 60);
/** The first day of the month before `at` (Japan time). */
const monthBefore = (at: Date) => {
  const p = japanParts(at);
  return fromJapan(p.year, p.month - 1, 1);
};

async function sessionOf(loginId: string): Promise<string> {
  const login = await call(loginAction, postForm('/login', { username: loginId, password: TEST_PASSWORD }));
  return login.headers.get('Set-Cookie')!.split(';')[0];
}

describe('the graph page and its CSV beyond retention', () => {
  type Page = { panels: { series: { pointsJson: string }[]; retention: { whole: boolean; text: string } | null }[] };
  const load = async (cookie: string, query: string) => (await (await call(pageLoader, get(`/stores/S001/temp_graphs?${query}`, undefined, { Cookie: cookie }), { storeId: 'S001' })).json()) as Page;

  it('draws a month beyond the readings but within the buckets from the buckets, and says so; the CSV has only the notice', async () => {
    const { fridge } = await world();
    const month = monthBefore(readingsKept);
    await insertReadings(fridge, [new Date(month.getTime() + 9 * 86_400_000), new Date(month.getTime() + 10 * 86_400_000)]);
    await measurementRetentionJob.run({ db, now, log });
    expect(await countRows(db, 'measurements')).toBe(0);

    const cookie = await sessionOf('admin');
    const start = toCompactDate(month);
    const [panel] = (await load(cookie, `equipment_id=${fridge}&unit=month&start_date=${start}`)).panels;
    expect(panel.retention).toEqual({ whole: false, text: '保存期間（2年）を過ぎたため、この期間の計測データは削除されています（グラフは10分ごとの平均値で表示しています）' });
    expect(JSON.parse(panel.series[0].pointsJson)).toHaveLength(2);

    const csv = await call(consoleCsvLoader, get(`/stores/S001/temp_graphs.csv?equipment_id=${fridge}&unit=month&start_date=${start}`, undefined, { Cookie: cookie }), { storeId: 'S001' });
    expect((await csv.text()).replace('\uFEFF', '').trim().split('\r\n')).toEqual([
      'センサID,センサ名,計測日時,温度,電池残量,電波強度,コメント',
      '保存期間（2年）を過ぎたため、この期間の計測データは削除されています',
    ]);

    // This month: nothing to say.
    expect((await load(cookie, `equipment_id=${fridge}&unit=month&start_date=${toCompactDate(now)}`)).panels[0].retention).toBeNull();
  });

  it('says a month beyond the buckets is deleted (nothing to draw), and names the first day kept of a week that straddles it', async () => {
    const { fridge } = await world();
    const cookie = await sessionOf('admin');
    const [beyond] = (await load(cookie, `equipment_id=${fridge}&unit=month&start_date=${toCompactDate(monthBefore(bucketsKept))}`)).panels;
    expect(beyond.retention).toEqual({ whole: true, text: '保存期間（5年）を過ぎたため、この期間の計測データは削除されています' });
    // The week of the day before the boundary starts before it and ends after it (or on it: then whole).
    const [week] = (await load(cookie, `equipment_id=${fridge}&unit=week&start_date=${toCompactDate(new Date(bucketsKept.getTime() - 86_400_000))}`)).panels;
    if (japanParts(bucketsKept).weekday === 0) expect(week.retention?.whole).toBe(true);
    else expect(week.retention?.text).toMatch(/^\d{4}\/\d{2}\/01より前の計測データは、保存期間（5年）を過ぎたため削除されています/);
  });
});

describe('a report of a period beyond retention', () => {
  const post = (body: unknown, token: string) => call(reportAction, postJson('/on-reco/v1/store_report', body, token));
  const fileOf = async (historyNo: number, token: string) =>
    Buffer.from(await (await call(downloadLoader, get(`/on-reco/v1/store_report/history/download?history_no=${historyNo}`, token))).arrayBuffer()).toString('utf8').slice(1).trim().split('\r\n');
  const request = (fridge: number, from: Date, to: Date) => ({
    store_id: 'S001', setting_no: null, setting_name: '', file_name: '温度記録', report_type: 4, regular_report: 0, data_interval: 720, manual_data_interval: [],
    start_time: toCompactDateTime(from), end_time: toCompactDateTime(new Date(to.getTime() - 10 * 60_000)), output_format: 2, mail_flg: 0,
    option1: 0, option2: 0, option3: 0, option4: 0, option5: 0, equipment_ids: [fridge], mail_addresses: [], attachment_flg: 0,
  });

  it('says so under the CSV header: whole when nothing is left, the first day kept when the period straddles the boundary', async () => {
    const { fridge } = await world();
    const token = await tokenFor('admin', TEST_PASSWORD);
    await insertReadings(fridge, [new Date(readingsKept.getTime() + 12 * 3_600_000)], 5.0);
    const day = 86_400_000;
    const whole = await (await post(request(fridge, new Date(readingsKept.getTime() - 3 * day), readingsKept), token)).json();
    const straddling = await (await post(request(fridge, new Date(readingsKept.getTime() - 1 * day), new Date(readingsKept.getTime() + day)), token)).json();
    expect(await makePendingReports(db)).toBe(2);

    const wholeLines = await fileOf(whole.history_no, token);
    // The notice as a row of its own, as wide as the others (区分 注記), instead of the report's "no data" line.
    expect(wholeLines[1]).toMatch(/,,,,注記,,,,保存期間（2年）を過ぎたため、この期間の計測データは削除されています,$/);
    expect(wholeLines.some((line) => line.includes('この期間のデータはありません'))).toBe(false);
    const lines = await fileOf(straddling.history_no, token);
    expect(lines[1]).toMatch(new RegExp(`,注記,,,,${toCompactDate(readingsKept).replace(/(\d{4})(\d{2})(\d{2})/, '$1/$2/$3')}より前の計測データは、保存期間（2年）を過ぎたため削除されています,$`));
    // The day within retention still prints its reading (12:00, the 720-minute row).
    expect(lines.some((line) => line.includes(`,${toCompactDate(readingsKept).replace(/(\d{4})(\d{2})(\d{2})/, '$1/$2/$3')} 12:00,5.0,測定値,`))).toBe(true);
  });
});

describe('the HACCP record beyond retention', () => {
  it('says so on the day page and in the month PDF; nothing within retention', async () => {
    await world();
    const cookie = await sessionOf('admin');
    const day = toCompactDate(monthBefore(readingsKept));
    const page = async (date: string) =>
      ((await (await call(haccpLoader, get(`/stores/S001/haccp_records?date=${date}`, undefined, { Cookie: cookie }), { storeId: 'S001' })).json()) as { retention: unknown }).retention;
    expect(await page(day)).toEqual({ whole: true, text: '保存期間（2年）を過ぎたため、この期間の計測データは削除されています' });
    expect(await page(toCompactDate(readingsKept))).toBeNull();

    const pdf = await call(haccpPdfLoader, get(`/stores/S001/haccp_records.pdf?month=${day.slice(0, 6)}`, undefined, { Cookie: cookie }), { storeId: 'S001' });
    expect(pdf.status).toBe(200);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'haccp-retention-')), 'haccp.pdf');
    writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, '')).toContain('保存期間（2年）を過ぎたため、この期間の計測データは削除されています');
  });
});
