import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { graphPeriod } from '~/domain/graph';
import { HaccpMonthSchema } from '~/domain/haccp';
import { retentionNotice } from '~/domain/retention';
import { toCompactDate } from '~/domain/japan-time';
import { fieldErrors } from '~/http/api.server';
import { requireStoreUser } from '~/http/access.server';
import { renderHaccpMonthPdf } from '~/reports/haccp-pdf.server';
import { getHaccpMonth } from '~/services/haccp.server';
import { retentionPolicy } from '~/services/retention.server';

// /stores/{store_id}/haccp_records.pdf?month=YYYYMM: the month of the HACCP record as a PDF
// (days up to today), for the page's 月次PDF link.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const now = new Date();
  const parsed = HaccpMonthSchema.safeParse({ month: new URL(request.url).searchParams.get('month') ?? toCompactDate(now).slice(0, 6) });
  if (!parsed.success) return json({ error: 'invalid_request', fields: fieldErrors(parsed.error) }, { status: 400 });
  const month = await getHaccpMonth(getDb(), viewer, storeId, parsed.data.month, toCompactDate(now));
  if (!month) throw new Response('Not Found', { status: 404 });
  const period = graphPeriod('month', `${parsed.data.month}01`);
  const retention = retentionNotice({ from: period.since, to: period.until }, retentionPolicy(now).readings);
  const pdf = await renderHaccpMonthPdf({ ...month, createdAt: now, createdBy: viewer.userName, retention });
  const fileName = `haccp_${month.store.storeNo}_${parsed.data.month}.pdf`;
  return new Response(new Uint8Array(pdf), {
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${fileName}"`, 'Cache-Control': 'no-store' },
  });
}
