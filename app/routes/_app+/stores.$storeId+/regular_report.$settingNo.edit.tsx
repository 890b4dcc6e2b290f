import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ReportForm } from '~/components/reports/report-form';
import { getDb } from '~/db/db.server';
import { formValuesOf } from '~/domain/report-form';
import { appUrl, reportUrl } from '~/domain/urls';
import { requireStoreUser } from '~/http/access.server';
import { reportFormAction } from '~/http/report-form.server';
import { getRegularReport } from '~/models/regular-reports.server';
import { listReportSensors } from '~/models/report-collection.server';

// /stores/{store_id}/regular_report/{setting_no}/edit (001 §2 Regular report edit): titled
// レポート作成, prefilled from the setting; save and discard go to the reports list.

export const meta: MetaFunction = () => [{ title: 'レポート作成 | On-Reco' }];

const settingNoOf = (params: { settingNo?: string }) => (/^\d{1,9}$/.test(params.settingNo ?? '') ? Number(params.settingNo) : null);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const settingNo = settingNoOf(params);
  const db = getDb();
  const [sensors, setting] = await Promise.all([listReportSensors(db, viewer, storeId), settingNo === null ? null : getRegularReport(db, viewer, storeId, settingNo)]);
  if (!sensors || !setting) throw redirect(appUrl.notFound);
  return json({ storeId, sensors, initial: formValuesOf(setting) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const settingNo = settingNoOf(params);
  if (settingNo === null) throw redirect(appUrl.notFound);
  return reportFormAction(getDb(), viewer, request, storeId, settingNo, new Date());
}

export default function RegularReportEditPage() {
  const { storeId, sensors, initial } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <ReportForm
      key={result && !result.ok ? JSON.stringify(result.values) : 'edit'}
      title="レポート作成"
      closeTo={reportUrl.list(storeId, 'reqular')}
      initial={result && !result.ok ? result.values : initial}
      editing
      sensors={sensors}
      regularCount={0}
      fields={result && !result.ok ? result.fields : {}}
      failed={result && !result.ok ? result.failed : null}
      done={result?.ok ? { ...result.done, to: reportUrl.list(storeId, 'reqular') } : null}
    />
  );
}
