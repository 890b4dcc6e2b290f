import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ReportForm } from '~/components/reports/report-form';
import { getDb } from '~/db/db.server';
import { defaultFormValues } from '~/domain/report-form';
import { appUrl, reportUrl } from '~/domain/urls';
import { requireStoreUser } from '~/http/access.server';
import { reportFormAction } from '~/http/report-form.server';
import { listRegularReports } from '~/models/regular-reports.server';
import { listReportSensors } from '~/models/report-collection.server';

// /stores/{store_id}/reports/create (001 §2 Report create): a sequential or regular report.

export const meta: MetaFunction = () => [{ title: 'レポート作成 | On-Reco' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const db = getDb();
  const [sensors, regular] = await Promise.all([listReportSensors(db, viewer, storeId), listRegularReports(db, viewer, storeId)]);
  if (!sensors || !regular) throw redirect(appUrl.notFound);
  return json({ storeId, sensors, regularCount: regular.length, initial: defaultFormValues(new Date(), false, viewer.mailaddress1) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  return reportFormAction(getDb(), viewer, request, storeId, null, new Date());
}

export default function ReportCreatePage() {
  const { storeId, sensors, regularCount, initial } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <ReportForm
      key={result && !result.ok ? JSON.stringify(result.values) : 'new'}
      title="レポート作成"
      closeTo={reportUrl.list(storeId)}
      initial={result && !result.ok ? result.values : initial}
      editing={false}
      sensors={sensors}
      regularCount={regularCount}
      fields={result && !result.ok ? result.fields : {}}
      failed={result && !result.ok ? result.failed : null}
      done={result?.ok ? result.done : null}
    />
  );
}
