import { json } from '@remix-run/node';
import { deleteRegularReport as deleteCall, listRegularReports as listCall, saveReport as saveCall } from '~/domain/api/reports';
import { toCompactDateTime } from '~/domain/japan-time';
import { apiError } from '~/http/access.server';
import { apiAction, apiActions, apiLoader } from '~/http/api-route.server';
import { reportError } from '~/http/report-failures.server';
import { listRegularReports } from '~/models/regular-reports.server';
import { deleteRegularReport, saveReport } from '~/services/reports.server';

// GET /v1/store_report?store_id: the regular settings; POST: the report create/edit payload
// (001 §3); DELETE ?store_id&setting_no: delete a setting, never the reports it produced.
export const loader = apiLoader(listCall, async ({ viewer, input, db }) => {
  const rows = await listRegularReports(db, viewer, input.store_id);
  if (!rows) throw apiError(404, 'not_found', `Store ${input.store_id} was not found.`);
  return rows.map((row) => ({
    setting_no: row.settingNo,
    setting_name: row.settingName,
    file_name: row.fileName,
    report_type: row.reportType,
    regular_report: row.regularReport,
    data_interval: row.dataInterval,
    manual_data_interval: row.manualTimes,
    start_time: toCompactDateTime(row.startTime),
    end_time: toCompactDateTime(row.endTime),
    output_format: row.outputFormat,
    mail_flg: row.mailFlg,
    option1: row.option1,
    option2: row.option2,
    option3: row.option3,
    option4: row.option4,
    option5: row.option5,
    equipment_ids: row.equipmentIds,
    mail_addresses: row.mailAddresses,
    attachment_flg: row.attachmentFlg,
    appendix: row.appendix,
    store_id: row.storeId,
    create_date: toCompactDateTime(row.createdAt),
    create_user_name: row.createdByName,
  }));
});

const save = apiAction(saveCall, async ({ viewer, input, db, now }) => {
  const result = await saveReport(db, viewer, input, now);
  if (!result.ok) return reportError(result);
  return json({ store_id: input.store_id, regular_report: input.regular_report, setting_no: result.settingNo, history_no: result.historyNo }, { status: result.created ? 201 : 200 });
});

const remove = apiAction(deleteCall, async ({ viewer, input, db, now }) => {
  const result = await deleteRegularReport(db, viewer, input.store_id, input.setting_no, now);
  if (!result.ok) return reportError(result);
  return { store_id: input.store_id, setting_no: input.setting_no };
});

export const action = apiActions(save, remove);
