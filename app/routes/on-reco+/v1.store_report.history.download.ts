import { downloadReport } from '~/domain/api/reports';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { reportFileResponse } from '~/http/report-files.server';
import { getReportFileInfo } from '~/models/report-history.server';

// GET /v1/store_report/history/download?history_no: the produced file, streamed, named in
// Content-Disposition; 404 for a report of a store one may not see, 409 while 作成中.
export const loader = apiLoader(downloadReport, async ({ viewer, input, db }) => {
  const file = await getReportFileInfo(db, viewer, input.history_no);
  if (!file) throw apiError(404, 'not_found', `Report ${input.history_no} was not found.`);
  return reportFileResponse(db, file);
});

export const action = apiNotAllowed(downloadReport.path);
