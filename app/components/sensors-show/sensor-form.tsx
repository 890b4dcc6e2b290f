import { Form, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { FormPage } from '~/components/page-kit';
import { FurnitureIcon, PlusIcon, TrashIcon } from '~/components/icons';
import { StatusBar } from '~/components/status-bar';
import { FURNITURE_KINDS } from '~/domain/furniture-kinds';
import { DEFROST_MAX, type MeasureTargetKind, SENSOR_MESSAGES, SENSOR_NAME_MAX, SensorSaveSchema, sensorFormInput } from '~/domain/sensor-settings';

// The sensor edit form (001 §2 Sensor edit, §5): every field, checked by the same schema in the
// browser (on submit) and on the server, whose messages come back at the same fields. Without
// JavaScript it is a plain form: the server checks and answers. Also the registration form.

export interface SensorFormValues {
  equipment_id: string;
  updated_at: string;
  serial_no: string;
  equipment_name: string;
  installation_datetime: string; // YYYY-MM-DD for the date input
  removal_datetime: string;
  measure_target_equipment_kind_id: string;
  lower_limit: string;
  upper_limit: string;
  guard_time: string;
  snoozing_time: string;
  icon_kind: string;
  def_time: { start: string; end: string }[];
  time_constant: string;
  disp_flg: string;
}

const toFormData = (values: SensorFormValues): Record<string, string> => {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (typeof value === 'string') fields[name] = value;
  values.def_time.forEach((range, index) => {
    fields[`def_start_${index}`] = range.start;
    fields[`def_end_${index}`] = range.end;
  });
  return fields;
};

/** The client's check: the server's schema on the form's fields, field → message. */
function clientErrors(values: SensorFormValues, storeId: string): Record<string, string> {
  const parsed = SensorSaveSchema.safeParse(sensorFormInput(toFormData(values), storeId));
  if (parsed.success) return {};
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  return fields;
}

export function SensorForm({
  storeId,
  closeTo,
  initial,
  kinds,
  fields: serverFields,
  message,
  registering,
}: {
  storeId: string;
  closeTo: string;
  initial: SensorFormValues;
  kinds: readonly MeasureTargetKind[];
  fields: Record<string, string>;
  message: string | null;
  registering: boolean;
}) {
  const navigation = useNavigation();
  const [values, setValues] = useState(initial);
  const [clientFields, setClientFields] = useState<Record<string, string> | null>(null);
  const fields = clientFields ?? serverFields;
  const set = (name: keyof SensorFormValues) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value }));
  const setRange = (index: number, end: 'start' | 'end', value: string) =>
    setValues((current) => ({ ...current, def_time: current.def_time.map((range, at) => (at === index ? { ...range, [end]: value } : range)) }));
  const banner = message ?? (Object.keys(fields).length > 0 ? SENSOR_MESSAGES.banner : null);
  const nameLength = [...values.equipment_name].length;
  const error = (name: string) => (fields[name] ? <p className="field-error" id={`${name}-error`}>{fields[name]}</p> : null);
  const invalid = (name: string) => (fields[name] ? { 'aria-invalid': true as const, 'aria-describedby': `${name}-error` } : {});
  return (
    <FormPage title={registering ? 'センサ登録' : 'センサ情報編集'} closeTo={closeTo} narrow={false}>
      <StatusBar tone="error" message={banner} />
      <Form
        method="post"
        noValidate
        className="card mx-auto max-w-4xl space-y-6 p-6"
        onSubmit={(event) => {
          const found = clientErrors(values, storeId);
          setClientFields(found);
          if (Object.keys(found).length > 0) event.preventDefault();
        }}
      >
        <input type="hidden" name="equipment_id" value={values.equipment_id} />
        <input type="hidden" name="updated_at" value={values.updated_at} />
        <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
          <div>
            <label htmlFor="serial_no" className="label">シリアルNo (BLEアドレス)</label>
            <input id="serial_no" name="serial_no" className="input font-mono" value={values.serial_no} onChange={set('serial_no')} readOnly={!registering} {...invalid('serial_no')} />
            {error('serial_no')}
          </div>
          <div>
            <label htmlFor="equipment_name" className="label">センサ名</label>
            <input id="equipment_name" name="equipment_name" className="input" value={values.equipment_name} onChange={set('equipment_name')} {...invalid('equipment_name')} />
            <div className="flex justify-between">
              {error('equipment_name') ?? <span />}
              <p className={`mt-1 text-xs ${nameLength > SENSOR_NAME_MAX ? 'text-red-600' : 'text-slate-400'}`} data-testid="name-counter">
                {nameLength} / {SENSOR_NAME_MAX}
              </p>
            </div>
          </div>
          <div>
            <label htmlFor="installation_datetime" className="label">設置日</label>
            <input id="installation_datetime" name="installation_datetime" type="date" className="input" value={values.installation_datetime} onChange={set('installation_datetime')} {...invalid('installation_datetime')} />
            {error('installation_datetime')}
          </div>
          <div>
            <label htmlFor="removal_datetime" className="label">撤去日</label>
            <input id="removal_datetime" name="removal_datetime" type="date" className="input" value={values.removal_datetime} onChange={set('removal_datetime')} {...invalid('removal_datetime')} />
            {error('removal_datetime')}
          </div>
          <div>
            <label htmlFor="measure_target_equipment_kind_id" className="label">計測什器種別</label>
            <select id="measure_target_equipment_kind_id" name="measure_target_equipment_kind_id" className="input" value={values.measure_target_equipment_kind_id} onChange={set('measure_target_equipment_kind_id')} {...invalid('measure_target_equipment_kind_id')}>
              <option value="">選択してください</option>
              {kinds.map((kind) => (
                <option key={kind.measure_target_equipment_kind_id} value={kind.measure_target_equipment_kind_id}>
                  {kind.measure_target_equipment_kind_name}
                </option>
              ))}
            </select>
            {error('measure_target_equipment_kind_id')}
          </div>
          <fieldset>
            <legend className="label">表示</legend>
            <div className="flex gap-6 pt-2 text-sm">
              <label className="inline-flex items-center gap-2">
                <input type="radio" name="disp_flg" value="1" checked={values.disp_flg === '1'} onChange={set('disp_flg')} /> 表示する
              </label>
              <label className="inline-flex items-center gap-2">
                <input type="radio" name="disp_flg" value="0" checked={values.disp_flg === '0'} onChange={set('disp_flg')} /> 表示しない
              </label>
            </div>
            {error('disp_flg')}
          </fieldset>
        </div>

        <fieldset className="grid grid-cols-1 gap-5 border-t border-slate-100 pt-5 md:grid-cols-4">
          <legend className="sr-only">閾値と時間</legend>
          <div>
            <label htmlFor="lower_limit" className="label">下限 (℃)</label>
            <input id="lower_limit" name="lower_limit" inputMode="decimal" className="input text-right" value={values.lower_limit} onChange={set('lower_limit')} {...invalid('lower_limit')} />
            {error('lower_limit')}
          </div>
          <div>
            <label htmlFor="upper_limit" className="label">上限 (℃)</label>
            <input id="upper_limit" name="upper_limit" inputMode="decimal" className="input text-right" value={values.upper_limit} onChange={set('upper_limit')} {...invalid('upper_limit')} />
            {error('upper_limit')}
          </div>
          <div>
            <label htmlFor="guard_time" className="label">ガード時間 (分)</label>
            <input id="guard_time" name="guard_time" inputMode="numeric" className="input text-right" value={values.guard_time} onChange={set('guard_time')} {...invalid('guard_time')} />
            {error('guard_time')}
          </div>
          <div>
            <label htmlFor="snoozing_time" className="label">スヌーズ時間 (分)</label>
            <input id="snoozing_time" name="snoozing_time" inputMode="numeric" className="input text-right" value={values.snoozing_time} onChange={set('snoozing_time')} {...invalid('snoozing_time')} />
            {error('snoozing_time')}
          </div>
          <div>
            <label htmlFor="time_constant" className="label">時定数 (%)</label>
            <input id="time_constant" name="time_constant" inputMode="numeric" className="input text-right" value={values.time_constant} onChange={set('time_constant')} {...invalid('time_constant')} />
            {error('time_constant')}
          </div>
          <p className="self-end pb-2 text-xs text-slate-500 md:col-span-3">閾値は −30〜60℃、小数点以下1桁まで。ガード 1〜360分、スヌーズ 1〜1440分、時定数 1〜200%（未入力は100）。</p>
        </fieldset>

        <fieldset className="border-t border-slate-100 pt-5">
          <legend className="label">アイコン</legend>
          <div className="grid grid-cols-4 gap-2 sm:grid-cols-6 lg:grid-cols-8" role="radiogroup" aria-label="アイコン">
            {FURNITURE_KINDS.map((kind) => {
              const chosen = values.icon_kind === String(kind.id);
              return (
                <label
                  key={kind.id}
                  className={`flex cursor-pointer flex-col items-center gap-1 rounded-md border p-2 text-center text-[11px] leading-tight focus-within:ring-2 focus-within:ring-brand-500 ${chosen ? 'border-brand-600 bg-brand-50 text-brand-800' : 'border-slate-200 text-slate-600 hover:bg-slate-50'}`}
                >
                  <input type="radio" name="icon_kind" value={kind.id} checked={chosen} onChange={set('icon_kind')} className="sr-only" />
                  <FurnitureIcon kind={kind.id} className="h-7 w-7" />
                  {kind.ja}
                </label>
              );
            })}
          </div>
          {error('icon_kind')}
        </fieldset>

        <fieldset className="border-t border-slate-100 pt-5">
          <legend className="label">霜取り時間帯</legend>
          <ul className="space-y-2">
            {values.def_time.map((range, index) => (
              <li key={index} className="flex flex-wrap items-center gap-2">
                <input
                  name={`def_start_${index}`}
                  type="time"
                  aria-label={`霜取り${index + 1} 開始`}
                  className="input w-32"
                  value={range.start}
                  onChange={(event) => setRange(index, 'start', event.target.value)}
                  {...invalid(`def_time.${index}`)}
                />
                <span className="text-slate-500">〜</span>
                <input
                  name={`def_end_${index}`}
                  type="time"
                  aria-label={`霜取り${index + 1} 終了`}
                  className="input w-32"
                  value={range.end}
                  onChange={(event) => setRange(index, 'end', event.target.value)}
                />
                <button
                  type="button"
                  className="rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-red-600"
                  aria-label={`霜取り${index + 1}を削除`}
                  onClick={() => setValues((current) => ({ ...current, def_time: current.def_time.filter((_, at) => at !== index) }))}
                >
                  <TrashIcon className="h-4 w-4" />
                </button>
                {fields[`def_time.${index}`] && <p className="field-error w-full" id={`def_time.${index}-error`}>{fields[`def_time.${index}`]}</p>}
              </li>
            ))}
          </ul>
          {values.def_time.length < DEFROST_MAX && (
            <button type="button" className="btn-secondary mt-3 px-3 py-1.5 text-sm" onClick={() => setValues((current) => ({ ...current, def_time: [...current.def_time, { start: '', end: '' }] }))}>
              <PlusIcon className="h-4 w-4" />
              霜取り時間帯を追加
            </button>
          )}
          <p className="mt-2 text-xs text-slate-500">開始順に並べて保存します。重なる時間帯は登録できません。</p>
        </fieldset>

        <div className="flex justify-end border-t border-slate-100 pt-5">
          <button type="submit" className="btn-primary min-w-32" disabled={navigation.state === 'submitting'}>
            {registering ? '登録' : '保存'}
          </button>
        </div>
      </Form>
    </FormPage>
  );
}
