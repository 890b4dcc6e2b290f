import { listReportHistory as listReportHistoryCall } from '~/domain/api/reports';
import { HISTORY_PAGE_SIZE, monthRange } from '~/domain/report-form';
import { parseCompact, toCompactDateTime } from '~/domain/japan-time';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listReportHistory } from '~/models/report-history.server';

// GET /v1/store_report/history?store_id&since&until[&page_no]: the history items created in the
// range (this month by default), newest first, 10 per page (001 §2, §7).
export const loader = apiLoader(listReportHistoryCall, async ({ viewer, input, db, now }) => {
  const month = monthRange(now);
  const since = input.since ? parseCompact(input.since)! : month.since;
  const until = input.until ? parseCompact(input.until)! : month.until;
  const page = await listReportHistory(db, viewer, { storeId: input.store_id, since, until, page: input.page_no, pageSize: HISTORY_PAGE_SIZE });
  if (!page) throw apiError(404, 'not_found', `Store ${input.store_id} was not found.`);
  return {
    all_count: page.total,
    histories: page.rows.map((row) => ({
      history_no: row.historyNo,
      create_datetime: toCompactDateTime(row.createdAt),
      file_name: row.fileName,
      report_type: row.reportType,
      start_time: toCompactDateTime(row.startTime),
      end_time: toCompactDateTime(row.endTime),
      output_format: row.outputFormat,
      url: row.state === 'done' ? `/on-reco/v1/store_report/history/download?history_no=${row.historyNo}` : null,
      state: row.state,
      setting_no: row.settingNo,
    })),
  };
});

export const action = apiNotAllowed(listReportHistoryCall.path);
