import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { PageError } from '~/components/page-error';
import { SensorForm, type SensorFormValues } from '~/components/sensors-show/sensor-form';
import { getDb } from '~/db/db.server';
import { SENSOR_MESSAGES, type SensorDetail, SensorSaveSchema, sensorFormInput } from '~/domain/sensor-settings';
import { appUrl, storeUrl } from '~/domain/urls';
import { requireStoreUser } from '~/http/access.server';
import { fieldErrors } from '~/http/api.server';
import { getSensorDetail, listMeasureTargetKinds } from '~/models/sensor-settings.server';
import { saveSensor } from '~/services/sensor-settings.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.registering ? 'センサ登録' : 'センサ情報編集'} | On-Reco` }];

// /stores/{store_id}/sensors/{sensor_id}/edit (001 §2 Sensor edit): the sensor's settings, saved
// through the same schema and service as POST /v1/equipments; a save returns to the sensors show
// page. sensor_id "new" is the registration form (store management), its serial prefilled from
// ?serial_no (a BLE address the gateway heard). A sensor of another store is /not_found.

const isRegistration = (sensorId: string | undefined) => sensorId === 'new';

const dashed = (value: string | null) => (value ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : '');
const numberText = (value: number | null) => (value === null ? '' : String(value));

function formValues(detail: SensorDetail): SensorFormValues {
  return {
    equipment_id: String(detail.equipment_id),
    updated_at: detail.updated_at,
    serial_no: detail.serial_no,
    equipment_name: detail.equipment_name,
    installation_datetime: dashed(detail.installation_datetime),
    removal_datetime: dashed(detail.removal_datetime),
    measure_target_equipment_kind_id: numberText(detail.measure_target_equipment_kind_id),
    lower_limit: detail.lower_limit === null ? '' : detail.lower_limit.toFixed(1),
    upper_limit: detail.upper_limit === null ? '' : detail.upper_limit.toFixed(1),
    guard_time: numberText(detail.guard_time),
    snoozing_time: numberText(detail.snoozing_time),
    icon_kind: String(detail.icon_kind),
    // One empty row more, so that a range can be added without JavaScript too.
    def_time: [...detail.def_time, { start: '', end: '' }],
    time_constant: String(detail.time_constant),
    disp_flg: String(detail.disp_flg),
  };
}

const NEW_SENSOR: SensorFormValues = {
  equipment_id: '',
  updated_at: '',
  serial_no: '',
  equipment_name: '',
  installation_datetime: '',
  removal_datetime: '',
  measure_target_equipment_kind_id: '',
  lower_limit: '',
  upper_limit: '',
  guard_time: '',
  snoozing_time: '',
  icon_kind: '',
  def_time: [{ start: '', end: '' }],
  time_constant: '100',
  disp_flg: '1',
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const registering = isRegistration(params.sensorId);
  const { viewer, storeId } = await requireStoreUser(request, params, registering ? 'storeManagement' : 'storeSettings');
  const db = getDb();
  const kinds = await listMeasureTargetKinds(db);
  if (registering) {
    const serial = (new URL(request.url).searchParams.get('serial_no') ?? '').slice(0, 17);
    return json({ storeId, registering, kinds, initial: { ...NEW_SENSOR, serial_no: serial, installation_datetime: '' } });
  }
  const equipmentId = Number(params.sensorId);
  const detail = Number.isSafeInteger(equipmentId) && equipmentId > 0 ? await getSensorDetail(db, viewer, equipmentId) : null;
  if (!detail || detail.store_id !== storeId) throw redirect(appUrl.notFound);
  return json({ storeId, registering, kinds, initial: formValues(detail) });
}

type ActionResult = { fields: Record<string, string>; message: string | null; values: Record<string, string>; at: number };

export async function action({ request, params }: ActionFunctionArgs) {
  const registering = isRegistration(params.sensorId);
  const { viewer, storeId } = await requireStoreUser(request, params, registering ? 'storeManagement' : 'storeSettings');
  const form = Object.fromEntries([...(await request.formData()).entries()].map(([name, value]) => [name, typeof value === 'string' ? value : '']));
  const input = sensorFormInput(form, storeId);
  // The URL names the sensor: a form that says otherwise is not trusted.
  if (registering) delete input.equipment_id;
  else input.equipment_id = params.sensorId;
  const answer = (fields: Record<string, string>, message: string | null, status: number) => json<ActionResult>({ fields, message, values: form, at: Date.now() }, { status });
  const parsed = SensorSaveSchema.safeParse(input);
  if (!parsed.success) return answer(fieldErrors(parsed.error), null, 400);
  const result = await saveSensor(getDb(), viewer, parsed.data, new Date());
  if (result.ok) return redirect(storeUrl.sensorSettings(storeId, { tab: 'sensors' }));
  switch (result.reason) {
    case 'not_found':
      throw redirect(appUrl.notFound);
    case 'forbidden':
      throw new Response('Forbidden', { status: 403 });
    case 'stale':
      return answer({}, result.message, 409);
    case 'duplicate':
    case 'invalid':
      return answer(result.fields, SENSOR_MESSAGES.banner, 400);
  }
}

/** The values the form showed when the server refused them, back in the form's shape. */
function refusedValues(initial: SensorFormValues, sent: Record<string, string>): SensorFormValues {
  const defTime: { start: string; end: string }[] = [];
  for (let index = 0; `def_start_${index}` in sent || `def_end_${index}` in sent; index++) defTime.push({ start: sent[`def_start_${index}`] ?? '', end: sent[`def_end_${index}`] ?? '' });
  const pick = (name: keyof SensorFormValues) => (typeof sent[name] === 'string' ? sent[name] : (initial[name] as string));
  return {
    ...initial,
    serial_no: pick('serial_no'),
    equipment_name: pick('equipment_name'),
    installation_datetime: pick('installation_datetime'),
    removal_datetime: pick('removal_datetime'),
    measure_target_equipment_kind_id: pick('measure_target_equipment_kind_id'),
    lower_limit: pick('lower_limit'),
    upper_limit: pick('upper_limit'),
    guard_time: pick('guard_time'),
    snoozing_time: pick('snoozing_time'),
    icon_kind: pick('icon_kind'),
    time_constant: pick('time_constant'),
    disp_flg: pick('disp_flg'),
    def_time: defTime.length > 0 ? defTime : initial.def_time,
  };
}

export default function SensorEditPage() {
  const { storeId, registering, kinds, initial } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const shown = result ? refusedValues(initial, result.values) : initial;
  return (
    <SensorForm
      key={result?.at ?? 'initial'}
      storeId={storeId}
      closeTo={storeUrl.sensorSettings(storeId, { tab: 'sensors' })}
      initial={shown}
      kinds={kinds}
      fields={result?.fields ?? {}}
      message={result?.message ?? null}
      registering={registering}
    />
  );
}

export function ErrorBoundary() {
  return <PageError title="センサ情報編集" forbiddenHint="センサの編集は管理者・保守担当者・ケース管理者・エリア管理者、登録は管理者と保守担当者のみ利用できます。" />;
}
