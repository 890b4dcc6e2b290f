import type { Db } from '~/db/db.server';
import { closedPeriods, REPORT_TYPE } from '~/domain/report-form';
import { insertRegularReportJobs, insertReportJob, type ReportRequest } from '~/models/report-history.server';
import { makePendingReports } from '~/services/reports.server';

// The demo chain's reports: two regular settings in each of the first operating stores and the
// reports they already produced (the last closed days, CSV and PDF), made by the same job code as
// the worker, plus a sequential report of yesterday, so the reports page shows real files.

const STORES = 3;

export async function seedReports(db: Db, now: Date): Promise<number> {
  const stores = await db.selectFrom('stores').select(['store_id']).where('working_state', '=', 1).orderBy('store_id').limit(STORES).execute();
  const admin = await db.selectFrom('users').select(['user_id', 'user_name']).orderBy('user_id').limit(1).executeTakeFirst();
  for (const { store_id: storeId } of stores) {
    const sensors = await db.selectFrom('sensors').select('equipment_id').where('store_id', '=', storeId).where('disp_flg', '=', 1).orderBy('equipment_id').execute();
    if (sensors.length === 0) continue;
    const equipmentIds = sensors.map((sensor) => sensor.equipment_id);
    const base = { store_id: storeId, regular_report: 1, equipment_ids: equipmentIds, created_by: admin?.user_id ?? null, created_at: new Date(now.getTime() - 40 * 86_400_000) };
    const [, daily] = await db
      .insertInto('regular_reports')
      .values([
        { ...base, setting_name: '月次温度記録', file_name: '月次温度記録', report_type: REPORT_TYPE.month, data_interval: 60, start_time: now, end_time: now, output_format: 1, mail_flg: 1, option1: 1, option2: 1, mail_addresses: ['tencho@example.com'], attachment_flg: 1 },
        { ...base, setting_name: '日次温度記録', file_name: '日次温度記録', report_type: REPORT_TYPE.day, data_interval: 10, start_time: now, end_time: now, output_format: 2, mail_flg: 0 },
      ])
      .returning('setting_no')
      .execute();
    const request = (settingName: string, dataInterval: number, pdf: boolean): ReportRequest => ({
      settingName, dataInterval, manualTimes: [], option1: pdf ? 1 : 0, option2: pdf ? 1 : 0, equipmentIds, mailFlg: 0, mailAddresses: [], attachmentFlg: 0, createdByName: admin?.user_name ?? null,
    });
    // The last three closed days of the daily setting (the demo's readings cover recent days).
    const days = closedPeriods(REPORT_TYPE.day, new Date(now.getTime() - 3 * 86_400_000), now);
    await insertRegularReportJobs(
      db,
      days.map((period) => ({ storeId, settingNo: daily.setting_no, fileName: '日次温度記録', reportType: REPORT_TYPE.day, outputFormat: 2, startTime: period.from, endTime: period.to, createdBy: admin?.user_id ?? null, request: request('日次温度記録', 10, false), createdAt: new Date(period.to.getTime() + 20 * 60_000) })),
    );
    const yesterday = days[days.length - 1];
    if (yesterday) {
      await insertReportJob(db, { storeId, settingNo: null, fileName: '前日の温度記録', reportType: REPORT_TYPE.day, outputFormat: 1, startTime: yesterday.from, endTime: yesterday.to, createdBy: admin?.user_id ?? null, request: request('随時レポート', 60, true), createdAt: new Date(now.getTime() - 60 * 60_000) });
    }
  }
  return makePendingReports(db);
}
