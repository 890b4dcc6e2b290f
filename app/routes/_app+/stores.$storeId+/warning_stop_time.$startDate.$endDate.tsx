import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { AlertStopTable, BackToCalendarButton, DeleteConfirmDialog, DeleteFailedDialog } from '~/components/alert-stops/alert-stop-list';
import { PageError } from '~/components/page-error';
import { StorePage } from '~/components/page-kit';
import { getDb } from '~/db/db.server';
import { listRange, listRows } from '~/domain/alert-stop-editor';
import { appUrl, storeUrl } from '~/domain/urls';
import { requireStoreUser } from '~/http/access.server';
import { deleteAlertSchedule, listAlertSchedules } from '~/services/alert-schedules.server';

// /stores/{store_id}/warning_stop_time/{start_date}/{end_date} (001 §2 "Alert-stop list"): the
// schedules in force on at least one day of the range (docs/decisions/115), add, edit and delete
// with a confirmation. Dates that are not real days, in the wrong order or more than a year apart
// are Page Not Found. 設定 (storeSettings) only.

export const meta: MetaFunction = () => [{ title: '警報停止時間一覧 | On-Reco' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'storeSettings');
  const range = listRange(params.startDate ?? '', params.endDate ?? '');
  if (!range) throw redirect(appUrl.notFound);
  const list = await listAlertSchedules(getDb(), viewer, storeId, range.startDate, range.endDate, new Date());
  if (!list) throw redirect(appUrl.notFound);
  const deleting = Number(new URL(request.url).searchParams.get('delete'));
  return json({
    storeId,
    ...range,
    hasSensors: list.sensors.length > 0,
    rows: listRows(list.schedules),
    deleting: list.schedules.some((schedule) => schedule.schedule_id === deleting) ? deleting : null,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'storeSettings');
  const range = listRange(params.startDate ?? '', params.endDate ?? '');
  if (!range) throw redirect(appUrl.notFound);
  const form = await request.formData();
  const scheduleId = Number(form.get('schedule_id'));
  const result =
    form.get('intent') === 'delete' && Number.isInteger(scheduleId) && scheduleId > 0 && scheduleId <= 2_147_483_647
      ? await deleteAlertSchedule(getDb(), viewer, storeId, scheduleId, new Date())
      : ({ ok: false } as const);
  // Success reloads the list; a failure says 削除に失敗しました。 and the list reloads behind it.
  if (result.ok) return redirect(storeUrl.alertStops(storeId, range.startDate, range.endDate));
  return json({ deleteFailed: true, at: Date.now() }, { status: 400 });
}

export default function AlertStopListPage() {
  const { storeId, startDate, endDate, rows, deleting, hasSensors } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const idle = useNavigation().state === 'idle';
  const listUrl = storeUrl.alertStops(storeId, startDate, endDate);
  return (
    <StorePage
      title="警報停止時間一覧"
      actions={
        <div className="flex gap-2">
          <BackToCalendarButton to={storeUrl.sensorSettings(storeId)} />
          <Link to={storeUrl.alertStopEdit(storeId, startDate, endDate, null)} className="btn-primary">
            新規追加
          </Link>
        </div>
      }
    >
      <AlertStopTable rows={rows} storeId={storeId} startDate={startDate} endDate={endDate} hasSensors={hasSensors} />
      {deleting !== null && !result && <DeleteConfirmDialog scheduleId={deleting} cancelTo={listUrl} />}
      {result?.deleteFailed && idle && <DeleteFailedDialog key={result.at} closeTo={listUrl} />}
    </StorePage>
  );
}

export function ErrorBoundary() {
  return <PageError title="警報停止時間一覧" forbiddenHint="警報停止時間の設定は店舗ユーザー以外が利用できます。" />;
}
