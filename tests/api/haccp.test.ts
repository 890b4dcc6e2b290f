import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { fromJapan, japanParts, toCompactDate } from '~/domain/japan-time';
import { action as pageAction, loader as pageLoader } from '~/routes/_app+/stores.$storeId+/haccp_records';
import { loader as pdfLoader } from '~/routes/_app+/stores.$storeId+/haccp_records[.]pdf';
import { action as loginAction } from '~/routes/_auth+/login';
import { action as signAction, loader as recordLoader } from '~/routes/on-reco+/v1.haccp_record';
import { TEST_PASSWORD, countRows, createSensor, createStore, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, postForm, postJson, tokenFor } from '../support/requests';
import { insertMeasurementRows } from '~/models/measurement-buckets.server';

const db = testDb();
beforeEach(() => resetDb());

// Yesterday, Japan time: inside the measurement partitions and never in the future.
const y = japanParts(new Date(Date.now() - 86_400_000));
const DAY = toCompactDate(fromJapan(y.year, y.month, y.day));
const at = (hour: number, minute = 0) => fromJapan(y.year, y.month, y.day, hour, minute);

async function sessionOf(loginId: string): Promise<string> {
  const login = await call(loginAction, postForm('/login', { username: loginId, password: TEST_PASSWORD }));
  return login.headers.get('Set-Cookie')!.split(';')[0];
}

async function readings(equipmentId: number, rows: [Date, number | null][]) {
  await insertMeasurementRows(db, rows.map(([measuredAt, temperature]) => ({ store_id: 'S001', equipment_id: equipmentId, measured_at: measuredAt, temperature, error: temperature === null, battery: 80, receive_sensitivity: -60 })));
}

/** S001 with a fridge (0–10 ℃) that went to 12 ℃ from 10:00 to 10:30 (a comment and a stopped alert on it) and a freezer warm only in its defrost range; S002 elsewhere. */
async function chain() {
  await createStore(db, 'S001', { store_name: '新宿店' });
  await createStore(db, 'S002', { store_name: '渋谷店' });
  await createUser(db, 'store1', 101, { storeIds: ['S001'] });
  await createUser(db, 'store2', 101, { storeIds: ['S002'] });
  await createUser(db, 'admin', 1);
  const fridge = await createSensor(db, 'S001', 'SN-H01', { equipment_name: '冷蔵ケース', lower_limit: 0, upper_limit: 10 });
  const freezer = await createSensor(db, 'S001', 'SN-H02', { equipment_name: '冷凍ケース', lower_limit: -25, upper_limit: -15, def_time: JSON.stringify([{ start: '02:00', end: '02:30' }]) });
  const fridgeRows: [Date, number | null][] = [];
  const freezerRows: [Date, number | null][] = [];
  for (let minute = 0; minute < 24 * 60; minute += 10) {
    const t = at(0, minute);
    fridgeRows.push([t, minute >= 600 && minute <= 630 ? 12 : 4]);
    freezerRows.push([t, minute >= 120 && minute < 150 ? -5 : -20]);
  }
  await readings(fridge, fridgeRows);
  await readings(freezer, freezerRows);
  const store1 = (await db.selectFrom('users').select('user_id').where('login_id', '=', 'store1').executeTakeFirstOrThrow()).user_id;
  await db.insertInto('measurement_comments').values({ store_id: 'S001', equipment_id: fridge, measured_at: at(10, 20), comment: '扉を閉めて商品を移動した', user_id: store1 }).execute();
  await db
    .insertInto('alert_history')
    .values({ store_id: 'S001', equipment_id: fridge, alert_id: 'OE00000001', alert_data1: '12.0', temperature: 12, lower_limit: 0, upper_limit: 10, started_at: at(10, 10), recovered_at: at(10, 40), stopped_at: at(10, 25), stopped_by: store1, stop_comment: '扉の閉め忘れ' })
    .execute();
  return { fridge, freezer, tokens: { store1: await tokenFor('store1', TEST_PASSWORD), store2: await tokenFor('store2', TEST_PASSWORD), admin: await tokenFor('admin', TEST_PASSWORD) } };
}

interface Sensor {
  equipment_id: number;
  result: string;
  excursions: { start_date: string; end_date: string; kind: string; peak: number; actions: { comment: string; user_name: string | null }[] }[];
  alerts: { alert_id: string; stop_comment: string | null; stopped_by_name: string | null }[];
}
interface Record {
  needs_signoff: 0 | 1;
  issue_count: number;
  signoffs: { user_name: string; note: string | null }[];
  sensors: Sensor[];
}

const record = async (token: string, storeId = 'S001', date = DAY) => call(recordLoader, get(`/on-reco/v1/haccp_record?store_id=${storeId}&date=${date}`, token));
const sign = (token: string, body: unknown) => call(signAction, postJson('/on-reco/v1/haccp_record', body, token));

describe('GET /v1/haccp_record', () => {
  it('fails a sensor with an excursion or an alert, with its corrective actions; defrost readings do not count', async () => {
    const { fridge, freezer, tokens } = await chain();
    const response = await record(tokens.store1);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record;
    const byId = new Map(body.sensors.map((s) => [s.equipment_id, s]));
    const f = byId.get(fridge)!;
    expect(f.result).toBe('fail');
    expect(f.excursions).toHaveLength(1);
    expect(f.excursions[0]).toMatchObject({ start_date: `${DAY}100000`, end_date: `${DAY}103000`, kind: 'high', peak: 12 });
    expect(f.excursions[0].actions.map((a) => a.comment)).toEqual(['扉を閉めて商品を移動した', '扉の閉め忘れ']);
    expect(f.alerts[0]).toMatchObject({ alert_id: 'OE00000001', stop_comment: '扉の閉め忘れ', stopped_by_name: 'store1 さん' });
    expect(byId.get(freezer)!.result).toBe('pass');
    expect(body.issue_count).toBe(2);
    expect(body.needs_signoff).toBe(1);
  });

  it('answers 404 for a store the user may not see, and 400 for a malformed date', async () => {
    const { tokens } = await chain();
    expect((await record(tokens.store2)).status).toBe(404);
    const bad = await record(tokens.store1, 'S001', '20261340');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { fields: { date: string } }).fields.date).toBeTruthy();
  });
});

describe('POST /v1/haccp_record (sign)', () => {
  it('signs once with an audit row, answers already_signed without writing again, and asks for a new sign-off after a new excursion', async () => {
    const { fridge, tokens } = await chain();
    const first = await sign(tokens.store1, { store_id: 'S001', date: DAY, note: '確認しました' });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ user_name: 'store1 さん', note: '確認しました', issue_count: 2, already_signed: 0 });
    expect(await countRows(db, 'haccp_signoffs')).toBe(1);
    const audits = await db.selectFrom('audit_log').selectAll().where('action', '=', 'haccp_record.sign').execute();
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ store_id: 'S001', target_type: 'haccp_signoff' });
    const details = audits[0].details as { before: unknown; after: { day: string; user_name: string; issue_count: number } };
    expect(details.before).toBeNull();
    expect(details.after).toMatchObject({ day: DAY, user_name: 'store1 さん', issue_count: 2 });

    const signed = (await (await record(tokens.store1)).json()) as Record;
    expect(signed.needs_signoff).toBe(0);
    expect(signed.signoffs).toEqual([expect.objectContaining({ user_name: 'store1 さん', note: '確認しました' })]);

    const again = await sign(tokens.admin, { store_id: 'S001', date: DAY });
    expect(await again.json()).toMatchObject({ user_name: 'store1 さん', already_signed: 1 });
    expect(await countRows(db, 'haccp_signoffs')).toBe(1);
    expect(await countRows(db, 'audit_log')).toBe(1);

    // A late reading outside the limits: a new excursion after the sign-off.
    await db.updateTable('measurements').set({ temperature: -3 }).where('equipment_id', '=', fridge).where('measured_at', '=', at(20)).execute();
    const late = (await (await record(tokens.store1)).json()) as Record;
    expect(late.needs_signoff).toBe(1);
    const resign = await sign(tokens.admin, { store_id: 'S001', date: DAY });
    expect(await resign.json()).toMatchObject({ issue_count: 3, already_signed: 0 });
    expect(await countRows(db, 'haccp_signoffs')).toBe(2);
    const second = await db.selectFrom('audit_log').select('details').where('action', '=', 'haccp_record.sign').orderBy('audit_id', 'desc').executeTakeFirstOrThrow();
    expect((second.details as { before: { issue_count: number } }).before.issue_count).toBe(2);
  });

  it('refuses another chain\'s store (404), a future day and a long note (400), writing nothing', async () => {
    const { tokens } = await chain();
    expect((await sign(tokens.store2, { store_id: 'S001', date: DAY })).status).toBe(404);
    const tomorrow = toCompactDate(new Date(Date.now() + 2 * 86_400_000));
    const future = await sign(tokens.store1, { store_id: 'S001', date: tomorrow });
    expect(future.status).toBe(400);
    expect(((await future.json()) as { fields: { date: string } }).fields.date).toBe('未来の日付には署名できません');
    const long = await sign(tokens.store1, { store_id: 'S001', date: DAY, note: 'あ'.repeat(201) });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { fields: { note: string } }).fields.note).toBe('備考は200文字以内で入力してください');
    expect(await countRows(db, 'haccp_signoffs')).toBe(0);
    expect(await countRows(db, 'audit_log')).toBe(0);
  });
});

describe('the console page and its monthly PDF', () => {
  it('shows the day, signs through the form, and prints the month with Japanese text and page numbers', async () => {
    await chain();
    const cookie = await sessionOf('store1');
    const page = await call(pageLoader, get(`/stores/S001/haccp_records?date=${DAY}`, undefined, { Cookie: cookie }), { storeId: 'S001' });
    const view = ((await page.json()) as { view: { needsSignoff: boolean; counts: { pass: number; fail: number } } }).view;
    expect(view).toMatchObject({ needsSignoff: true, counts: { pass: 1, fail: 1 } });

    const tooLong = await call(pageAction, postForm(`/stores/S001/haccp_records?date=${DAY}`, { date: DAY, note: 'x'.repeat(201) }, { Cookie: cookie }), { storeId: 'S001' });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { errors: { note: string } }).errors.note).toBe('備考は200文字以内で入力してください');
    const signed = await call(pageAction, postForm(`/stores/S001/haccp_records?date=${DAY}`, { date: DAY, note: '' }, { Cookie: cookie }), { storeId: 'S001' });
    expect(signed.status).toBe(302);
    expect(await countRows(db, 'haccp_signoffs')).toBe(1);

    const other = await sessionOf('store2');
    const hidden = await call(pageLoader, get(`/stores/S001/haccp_records?date=${DAY}`, undefined, { Cookie: other }), { storeId: 'S001' });
    expect(hidden.headers.get('Location')).toBe('/not_found');

    const pdf = await call(pdfLoader, get(`/stores/S001/haccp_records.pdf?month=${DAY.slice(0, 6)}`, undefined, { Cookie: cookie }), { storeId: 'S001' });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf');
    expect(pdf.headers.get('Content-Disposition')).toContain(`haccp_`);
    const dir = mkdtempSync(path.join(tmpdir(), 'haccp-pdf-'));
    const file = path.join(dir, 'haccp.pdf');
    writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('HACCP温度管理記録');
    expect(text).toContain('冷蔵ケース');
    expect(text).toContain('扉を閉めて商品を移動した');
    expect(text).toContain('store1 さん');
    expect(text).toMatch(/1 \/ \d+ ページ/);
    expect((await call(pdfLoader, get('/stores/S001/haccp_records.pdf?month=202613', undefined, { Cookie: cookie }), { storeId: 'S001' })).status).toBe(400);
  });
});
