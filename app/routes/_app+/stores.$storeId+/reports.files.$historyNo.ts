import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { appUrl } from '~/domain/urls';
import { requireStoreUser } from '~/http/access.server';
import { reportFileResponse } from '~/http/report-files.server';
import { getReportFileInfo } from '~/models/report-history.server';

// /stores/{store_id}/reports/files/{history_no}: a produced report's file for the console's
// download links and the mails' links (streamed, named in Content-Disposition).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const historyNo = /^\d{1,9}$/.test(params.historyNo ?? '') ? Number(params.historyNo) : null;
  const db = getDb();
  const file = historyNo === null ? null : await getReportFileInfo(db, viewer, historyNo);
  if (!file || file.storeId !== storeId) throw redirect(appUrl.notFound);
  return reportFileResponse(db, file);
}
