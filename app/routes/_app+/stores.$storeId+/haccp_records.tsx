import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { HaccpDayNav, HaccpSignoff, HaccpTable } from '~/components/haccp/haccp-day';
import { StorePage } from '~/components/page-kit';
import { PageError } from '~/components/page-error';
import { getDb } from '~/db/db.server';
import { HACCP_TEXTS, HaccpRecordQuerySchema, HaccpSignSchema, dayWindow, haccpDayView, isFutureDay } from '~/domain/haccp';
import { retentionNotice } from '~/domain/retention';
import { toCompactDate } from '~/domain/japan-time';
import { storeUrl } from '~/domain/urls';
import { fieldErrors } from '~/http/api.server';
import { requireStoreUser } from '~/http/access.server';
import { getHaccpDay, signHaccpDay } from '~/services/haccp.server';
import { retentionPolicy } from '~/services/retention.server';
import { RetentionNote } from '~/components/retention-note';

export const meta: MetaFunction = () => [{ title: 'HACCP記録 | On-Reco' }];

// /stores/{store_id}/haccp_records?date=YYYYMMDD: the HACCP daily record (docs/decisions/146).
// A missing or malformed date shows today; a future day shows its (empty) record without the sign form.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const now = new Date();
  const parsed = HaccpRecordQuerySchema.safeParse({ store_id: storeId, date: new URL(request.url).searchParams.get('date') ?? '' });
  const day = parsed.success ? parsed.data.date : toCompactDate(now);
  const record = await getHaccpDay(getDb(), viewer, storeId, day);
  if (!record) throw new Response('Not Found', { status: 404 });
  return json({ storeId, view: haccpDayView(record, now), retention: retentionNotice(dayWindow(day), retentionPolicy(now).readings) });
}

// The sign form: everyone who may see the store may sign (DESIGN.md). One audit row per sign-off.
export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const now = new Date();
  const form = Object.fromEntries(await request.formData());
  const parsed = HaccpSignSchema.safeParse({ ...form, store_id: storeId });
  if (!parsed.success) return json({ errors: fieldErrors(parsed.error), note: String(form.note ?? '') }, { status: 400 });
  if (isFutureDay(parsed.data.date, now)) return json({ errors: { date: HACCP_TEXTS.futureDay } as Record<string, string>, note: String(form.note ?? '') }, { status: 400 });
  const outcome = await signHaccpDay(getDb(), viewer, { storeId, day: parsed.data.date, note: parsed.data.note, now });
  if (!outcome) throw new Response('Not Found', { status: 404 });
  return redirect(storeUrl.haccp(storeId, { date: parsed.data.date }));
}

export default function HaccpRecordsPage() {
  const { storeId, view, retention } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const month = view.day.slice(0, 6);
  return (
    <StorePage
      title={HACCP_TEXTS.title}
      actions={
        <a className="btn-secondary" href={storeUrl.haccpPdf(storeId, { month })} download>
          {HACCP_TEXTS.monthlyPdf}（{month.slice(0, 4)}/{month.slice(4)}）
        </a>
      }
    >
      <HaccpDayNav storeId={storeId} view={view} />
      {/* On a phone the sensor cards are long: the sign form is one tap away (issue 33 item 3). */}
      {view.canSign && view.needsSignoff && (
        <a href="#haccp-signoff" className="btn-secondary mb-3 w-full md:hidden">
          {HACCP_TEXTS.jumpToSign}
        </a>
      )}
      {result?.errors.date && <p className="field-error mb-3 text-sm">{result.errors.date}</p>}
      {retention && <RetentionNote text={retention.text} className="mb-3" />}
      <HaccpTable view={view} />
      <HaccpSignoff view={view} noteError={result?.errors.note} note={result?.note} />
    </StorePage>
  );
}

export function ErrorBoundary() {
  return <PageError title={HACCP_TEXTS.title} />;
}
