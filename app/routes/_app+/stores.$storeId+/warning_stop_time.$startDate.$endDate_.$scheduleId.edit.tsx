import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { AlertStopEditorForm } from '~/components/alert-stops/alert-stop-editor';
import { PageError } from '~/components/page-error';
import { FormPage } from '~/components/page-kit';
import { getDb } from '~/db/db.server';
import { AlertScheduleSaveSchema, editorStateOf, editorStateOfForm, listRange, newEditorState, saveBodyOf } from '~/domain/alert-stop-editor';
import { INT4_MAX } from '~/domain/input-schemas';
import { appUrl, storeUrl } from '~/domain/urls';
import { requireStoreUser } from '~/http/access.server';
import { fieldErrors } from '~/http/api.server';
import { getAlertScheduleForEdit, saveAlertSchedule } from '~/services/alert-schedules.server';

// /stores/{store_id}/warning_stop_time/{start_date}/{end_date}/{schedule_id}/edit (001 §2
// "Alert-stop edit"; schedule_id is null when creating): the form posts to its own action, which
// builds the same POST /v1/alert_schedule body and saves it through the same schema and service.
// Saved or discarded, it returns to the list.

export const meta: MetaFunction = () => [{ title: '警報停止時間編集 | On-Reco' }];

/** The route's schedule id: null for 'null', the id, or undefined (not a schedule: Page Not Found). */
function scheduleIdOf(value: string | undefined): number | null | undefined {
  if (value === 'null') return null;
  const id = Number(value);
  return /^\d+$/.test(value ?? '') && id >= 1 && id <= INT4_MAX ? id : undefined;
}

async function loadEditor(request: Request, params: LoaderFunctionArgs['params']) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'storeSettings');
  const range = listRange(params.startDate ?? '', params.endDate ?? '');
  const scheduleId = scheduleIdOf(params.scheduleId);
  if (!range || scheduleId === undefined) throw redirect(appUrl.notFound);
  const editor = await getAlertScheduleForEdit(getDb(), viewer, storeId, scheduleId, new Date());
  if (!editor) throw redirect(appUrl.notFound);
  return { viewer, storeId, range, scheduleId, editor };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { storeId, range, scheduleId, editor } = await loadEditor(request, params);
  return json({
    storeId,
    ...range,
    scheduleId,
    sensors: editor.sensors,
    initial: editor.schedule ? editorStateOf(editor.schedule, editor.sensors) : newEditorState(range.startDate, editor.sensors),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId, range, scheduleId, editor } = await loadEditor(request, params);
  const state = editorStateOfForm(await request.formData(), editor.sensors);
  const parsed = AlertScheduleSaveSchema.safeParse(saveBodyOf(storeId, scheduleId, state, editor.sensors));
  if (!parsed.success) return json({ fields: fieldErrors(parsed.error), state, at: Date.now() }, { status: 400 });
  const result = await saveAlertSchedule(getDb(), viewer, parsed.data, new Date());
  if (!result.ok && result.reason === 'not_found') throw redirect(appUrl.notFound);
  if (!result.ok) return json({ fields: result.fields, state, at: Date.now() }, { status: 400 });
  return redirect(storeUrl.alertStops(storeId, range.startDate, range.endDate));
}

export default function AlertStopEditPage() {
  const { storeId, startDate, endDate, scheduleId, sensors, initial } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <FormPage title={scheduleId === null ? '警報停止時間登録' : '警報停止時間編集'} closeTo={storeUrl.alertStops(storeId, startDate, endDate)} narrow={false}>
      <AlertStopEditorForm
        // A refused save shows what was sent (the server's copy, also without JavaScript).
        key={result?.at ?? 'initial'}
        storeId={storeId}
        scheduleId={scheduleId}
        sensors={sensors}
        initial={result?.state ?? initial}
        serverFields={result?.fields ?? {}}
      />
    </FormPage>
  );
}

export function ErrorBoundary() {
  return <PageError title="警報停止時間編集" forbiddenHint="警報停止時間の設定は店舗ユーザー以外が利用できます。" />;
}
