import type { Db } from '~/db/db.server';
import type { ReportSave } from '~/domain/report-form';
import { storeVisibleTo, visibleStoreExists } from './stores.server';
import type { Viewer } from './users.server';

// regular_reports: a store's regular report settings, and the ones due for the scheduler.


export interface RegularReportRow {
  storeId: string;
  settingNo: number;
  settingName: string;
  fileName: string;
  reportType: number;
  regularReport: number;
  dataInterval: number | null;
  manualTimes: string[];
  startTime: Date;
  endTime: Date;
  outputFormat: number;
  mailFlg: number;
  option1: number;
  option2: number;
  option3: number;
  option4: number;
  option5: number;
  equipmentIds: number[];
  mailAddresses: string[];
  attachmentFlg: number;
  appendix: number;
  createdAt: Date;
  createdBy: number | null;
  createdByName: string | null;
}

function regularQuery(db: Db) {
  return db
    .selectFrom('regular_reports as r')
    .leftJoin('users as u', 'u.user_id', 'r.created_by')
    .select([
      'r.store_id as storeId',
      'r.setting_no as settingNo',
      'r.setting_name as settingName',
      'r.file_name as fileName',
      'r.report_type as reportType',
      'r.regular_report as regularReport',
      'r.data_interval as dataInterval',
      'r.manual_data_interval as manualTimes',
      'r.start_time as startTime',
      'r.end_time as endTime',
      'r.output_format as outputFormat',
      'r.mail_flg as mailFlg',
      'r.option1',
      'r.option2',
      'r.option3',
      'r.option4',
      'r.option5',
      'r.equipment_ids as equipmentIds',
      'r.mail_addresses as mailAddresses',
      'r.attachment_flg as attachmentFlg',
      'r.appendix',
      'r.created_at as createdAt',
      'r.created_by as createdBy',
      'u.user_name as createdByName',
    ]);
}

/** A store's regular settings in setting order; null when the viewer may not see the store. */
export async function listRegularReports(db: Db, viewer: Viewer, storeId: string): Promise<RegularReportRow[] | null> {
  const store = await db.selectFrom('stores').select('store_id').where('store_id', '=', storeId).where(storeVisibleTo(viewer)).executeTakeFirst();
  if (!store) return null;
  return regularQuery(db).where('r.store_id', '=', storeId).orderBy('r.setting_no').execute();
}

export async function getRegularReport(db: Db, viewer: Viewer, storeId: string, settingNo: number): Promise<RegularReportRow | null> {
  const row = await regularQuery(db)
    .where('r.store_id', '=', storeId)
    .where('r.setting_no', '=', settingNo)
    .where(visibleStoreExists(viewer, storeId))
    .executeTakeFirst();
  return row ?? null;
}

/** Locks the store's settings (the count limit under concurrent saves) and returns how many there are. */
export async function lockRegularReports(trx: Db, storeId: string): Promise<number> {
  await trx.selectFrom('stores').select('store_id').where('store_id', '=', storeId).forUpdate().execute();
  const row = await trx.selectFrom('regular_reports').select((eb) => eb.fn.countAll<string>().as('n')).where('store_id', '=', storeId).executeTakeFirstOrThrow();
  return Number(row.n);
}

const settingColumns = (input: ReportSave) => ({
  setting_name: input.setting_name,
  file_name: input.file_name,
  report_type: input.report_type,
  regular_report: input.regular_report,
  data_interval: input.data_interval,
  manual_data_interval: input.manual_data_interval,
  start_time: input.start_time,
  end_time: input.end_time,
  output_format: input.output_format,
  mail_flg: input.mail_flg,
  option1: input.option1,
  option2: input.option2,
  option3: input.option3,
  option4: input.option4,
  option5: input.option5,
  equipment_ids: input.equipment_ids,
  mail_addresses: input.mail_addresses,
  attachment_flg: input.attachment_flg,
  appendix: input.appendix,
});

export async function insertRegularReport(trx: Db, input: ReportSave, userId: number, now: Date): Promise<number> {
  const row = await trx
    .insertInto('regular_reports')
    .values({ store_id: input.store_id, ...settingColumns(input), created_by: userId, created_at: now, updated_at: now })
    .returning('setting_no')
    .executeTakeFirstOrThrow();
  return row.setting_no;
}

export async function updateRegularReport(trx: Db, input: ReportSave & { setting_no: number }, now: Date): Promise<void> {
  await trx
    .updateTable('regular_reports')
    .set({ ...settingColumns(input), updated_at: now })
    .where('store_id', '=', input.store_id)
    .where('setting_no', '=', input.setting_no)
    .execute();
}

export async function deleteRegularReport(trx: Db, storeId: string, settingNo: number): Promise<void> {
  await trx.deleteFrom('regular_reports').where('store_id', '=', storeId).where('setting_no', '=', settingNo).execute();
}

/** Every regular setting of the stores that are not removed, for the schedule (no viewer: the worker). */
export async function listDueRegularSettings(db: Db): Promise<RegularReportRow[]> {
  return regularQuery(db)
    .innerJoin('stores as s', 's.store_id', 'r.store_id')
    .where((eb) => eb.or([eb('s.working_state', 'is', null), eb('s.working_state', '!=', 2)]))
    .orderBy('r.store_id')
    .orderBy('r.setting_no')
    .execute();
}
