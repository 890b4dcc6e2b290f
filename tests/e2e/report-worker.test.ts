import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { fromJapan } from '../../app/domain/japan-time';
import { insertMeasurementsWithBuckets } from '../../app/models/measurement-buckets.server';
import { scheduleRegularReports } from '../../app/services/reports.server';
import { createSensor, createStore, createUser } from '../fixtures/chain';
import { startWorker, stopProcess, waitUntil } from '../support/processes';
import { startSmtpServer } from '../support/smtp';

// Report generation across processes: the real worker (scripts/worker.ts), killed with SIGKILL
// in the middle of a report, and the regular schedule mailing a month report to a real SMTP server.
const db = createDb(inject('databaseUrl'), 2);
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await db.destroy();
});

/**
 * A store with `sensors` sensors and a reading a minute for each over the Japan month (in SQL).
 * `slow`: a reading over the upper limit in every 10 minutes, which makes a report read every
 * reading (a bucket with a value outside the limits is re-read raw: decisions 149, 192), so that
 * it is long enough to be caught in the making.
 */
async function storeWithMonth(storeId: string, sensors: number, year: number, month: number, slow = false) {
  await createStore(db, storeId, { store_name: `${storeId} 店` });
  const ids: number[] = [];
  for (let i = 0; i < sensors; i++) ids.push(await createSensor(db, storeId, `AA:BB:${storeId.slice(-2)}:00:00:${String(i + 10)}`, { equipment_name: `冷蔵ケース${i + 1}`, upper_limit: 10, lower_limit: 0 }));
  const from = fromJapan(year, month, 1);
  const to = fromJapan(year, month + 1, 1);
  await insertMeasurementsWithBuckets(db, sql`
    insert into measurements (store_id, equipment_id, measured_at, temperature, error)
    select ${storeId}, e, t,
           case when ${slow} and extract(minute from t)::int % 10 = 5 then 14.5 else round((4 + 2 * sin(extract(epoch from t) / 3600.0 + e))::numeric, 1) end, false
    from unnest(${ids}::int[]) e, generate_series(${from}::timestamptz, ${to}::timestamptz - interval '1 minute', interval '1 minute') t
    on conflict do nothing
    returning store_id, equipment_id, measured_at, temperature, error`);
  return ids;
}

const historyOf = (storeId: string) =>
  db.selectFrom('report_history').select(['history_no', 'state', 'attempts', 'content', 'setting_no']).where('store_id', '=', storeId).orderBy('history_no').execute();

/** Whether a worker holds the report's row (it is being made): a SKIP LOCKED read does not see it. */
async function beingMade(storeId: string, historyNo: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const free = await trx.selectFrom('report_history').select('history_no').where('store_id', '=', storeId).where('history_no', '=', historyNo).forUpdate().skipLocked().executeTakeFirst();
    return free === undefined;
  });
}

describe('report jobs in the worker', () => {
  it('a worker killed with SIGKILL in the middle of a report loses no job and makes no duplicate', async () => {
    const ids = await storeWithMonth('RPK01', 20, 2026, 10, true);
    await db
      .insertInto('report_history')
      .values({
        store_id: 'RPK01',
        setting_no: null,
        file_name: '10月 温度記録',
        report_type: 1,
        output_format: 2,
        start_time: fromJapan(2026, 10, 1),
        end_time: fromJapan(2026, 10, 31, 23, 50),
        state: 'pending',
        request: JSON.stringify({ settingName: '随時レポート', dataInterval: 10, manualTimes: [], option1: 1, option2: 1, equipmentIds: ids, mailFlg: 1, mailAddresses: ['kill-test@example.com'], attachmentFlg: 1, createdByName: null }),
      })
      .execute();
    const [{ history_no: historyNo }] = await historyOf('RPK01');
    const first = startWorker({ DATABASE_URL: inject('databaseUrl'), SMTP_URL: smtp.url });
    try {
      await waitUntil(() => beingMade('RPK01', historyNo), 30_000, 'the worker to take the report');
    } finally {
      await stopProcess(first, 'SIGKILL');
    }
    const afterKill = await historyOf('RPK01');
    expect(afterKill).toHaveLength(1);
    expect(afterKill[0]).toMatchObject({ state: 'pending', attempts: 0, content: null });
    const second = startWorker({ DATABASE_URL: inject('databaseUrl'), SMTP_URL: smtp.url });
    try {
      await waitUntil(async () => (await historyOf('RPK01'))[0].state === 'done', 60_000, 'the report after the restart');
      await waitUntil(async () => smtp.received.some((mail) => mail.to.includes('kill-test@example.com')), 20_000, 'the report mail');
      // Done when nothing is left to send: a second report of the job would have queued a second mail.
      await waitUntil(async () => (await db.selectFrom('mail_outbox').select('mail_id').where('to_address', '=', 'kill-test@example.com').where('sent_at', 'is', null).execute()).length === 0, 20_000, 'the outbox to empty');
    } finally {
      await stopProcess(second);
    }
    const done = await historyOf('RPK01');
    expect(done).toHaveLength(1);
    expect(await db.selectFrom('mail_outbox').select('mail_id').where('to_address', '=', 'kill-test@example.com').execute()).toHaveLength(1);
    const lines = done[0].content!.toString('utf8').trim().split('\r\n');
    // One long table (docs/decisions/287): the header, a row per sensor and time, then the comments
    // (option1) as rows of their own (区分, the seventh column, コメント; the header names a コメント column too).
    expect(lines[0]).toContain('店舗番号,店舗名,センサー');
    expect(lines.slice(1).filter((line) => line.split(',')[6] !== 'コメント')).toHaveLength(20 * 31 * 144);
    expect(smtp.received.filter((mail) => mail.to.includes('kill-test@example.com'))).toHaveLength(1);
  }, 180_000);

  it('the schedule, run past a month\'s end, makes the month report once and mails it with its attachment; a day report mails a link', async () => {
    const ids = await storeWithMonth('RPC01', 2, 2026, 9);
    await createUser(db, 'rpc-user', 101, { storeIds: ['RPC01'] });
    const created = fromJapan(2026, 9, 10, 9);
    const setting = (name: string, type: number, attachment: number) => ({
      store_id: 'RPC01',
      setting_name: name,
      file_name: `${name}ファイル`,
      report_type: type,
      regular_report: 1,
      data_interval: 60,
      start_time: fromJapan(2026, 9, 1),
      end_time: fromJapan(2026, 9, 30, 23, 50),
      output_format: 2,
      mail_flg: 1,
      equipment_ids: ids,
      mail_addresses: [`${type === 1 ? 'month' : 'day'}-report@example.com`],
      attachment_flg: attachment,
      created_at: created,
    });
    await db.insertInto('regular_reports').values([setting('月報', 1, 1), setting('日報', 3, 0)]).execute();
    // Cron's moment, advanced past September's end (Japan time): 1 October 00:01.
    const now = fromJapan(2026, 10, 1, 0, 1);
    const scheduled = await scheduleRegularReports(db, now);
    // The month of September, and the days from 10 to 30 September.
    expect(scheduled).toBe(1 + 21);
    expect(await scheduleRegularReports(db, new Date(now.getTime() + 60_000))).toBe(0);
    // The worker's own schedule runs on today's clock: with the settings deleted it adds nothing,
    // and the jobs already written are still made and mailed (deleting never loses a report).
    await db.deleteFrom('regular_reports').where('store_id', '=', 'RPC01').execute();
    const worker = startWorker({ DATABASE_URL: inject('databaseUrl'), SMTP_URL: smtp.url, ONRECO_PUBLIC_URL: 'http://reports.example' });
    try {
      await waitUntil(async () => smtp.received.filter((mail) => mail.to.some((to) => to.endsWith('-report@example.com'))).length >= 22, 90_000, 'the report mails');
    } finally {
      await stopProcess(worker);
    }
    const month = smtp.received.filter((mail) => mail.to.includes('month-report@example.com'));
    expect(month).toHaveLength(1);
    expect(month[0].subject).toContain('月報');
    expect(month[0].raw).toContain('Content-Disposition: attachment');
    const days = smtp.received.filter((mail) => mail.to.includes('day-report@example.com'));
    expect(days).toHaveLength(21);
    expect(days[0].text).toContain('http://reports.example/stores/RPC01/reports/files/');
    expect(days[0].raw).not.toContain('Content-Disposition: attachment');
    const rows = await db.selectFrom('report_history').select(['setting_no', 'state']).where('store_id', '=', 'RPC01').execute();
    expect(rows).toHaveLength(22);
    expect(rows.every((row) => row.state === 'done')).toBe(true);
  }, 180_000);
});
