import { Form, Link, useNavigate, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { useHydrated } from '~/components/use-hydrated';
import { Modal } from '~/components/modal';
import { FormPage } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { formatDate } from '~/domain/japan-time';
import { formPeriod, REPORT_APPENDIX_LABEL, REPORT_MESSAGES, REPORT_TYPE_LABELS, type ReportFormValues } from '~/domain/report-form';

export interface ReportFormSensor {
  equipmentId: number;
  name: string;
  hidden: boolean;
}

interface ReportFormProps {
  title: string;
  closeTo: string;
  initial: ReportFormValues;
  /** The edit page: regular only. */
  editing: boolean;
  sensors: ReportFormSensor[];
  regularCount: number;
  fields: Record<string, string>;
  failed: string | null;
  /** After saving: the dialog's text and where OK leads. */
  done: { message: string; to: string } | null;
}

const radio = 'h-4 w-4 border-slate-300 text-brand-600 focus:ring-brand-500';
const check = 'h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500';

function Choice({ name, value, checked, label, onChange, disabled }: { name: string; value: string; checked: boolean; label: string; onChange: (value: string) => void; disabled?: boolean }) {
  return (
    <label className={`inline-flex items-center gap-2 text-sm ${disabled ? 'text-slate-400' : 'text-slate-700'}`}>
      <input type="radio" name={name} value={value} checked={checked} disabled={disabled} onChange={() => onChange(value)} className={radio} />
      {label}
    </label>
  );
}

function Section({ title, children, error }: { title: string; children: React.ReactNode; error?: string }) {
  return (
    <fieldset className="border-b border-slate-100 pb-5 last:border-0">
      <legend className="label">{title}</legend>
      <div className="mt-2">{children}</div>
      {error && <p className="field-error">{error}</p>}
    </fieldset>
  );
}

/** The report create and regular report edit form (001 §2, §4, §5). Works without JavaScript; JavaScript shows only what applies. */
export function ReportForm({ title, closeTo, initial, editing, sensors, regularCount, fields, failed, done }: ReportFormProps) {
  const navigation = useNavigation();
  const navigate = useNavigate();
  const [values, setValues] = useState(initial);
  const set = <K extends keyof ReportFormValues>(key: K, value: ReportFormValues[K]) => setValues((old) => ({ ...old, [key]: value }));
  const regular = values.regular_report === '1';
  const period = formPeriod(values);
  const month = values.report_type === '1';
  const mailOn = values.mail_flg === '1';
  const atLimit = regular && !editing && regularCount >= 10;
  const hydrated = useHydrated();
  const allChosen = sensors.every((sensor) => values.equipment_ids.includes(sensor.equipmentId));
  const toggleSensor = (id: number) => set('equipment_ids', values.equipment_ids.includes(id) ? values.equipment_ids.filter((other) => other !== id) : [...values.equipment_ids, id]);
  return (
    <FormPage title={title} closeTo={closeTo}>
      <StatusBar tone="error" message={failed} />
      <Form method="post" className="card space-y-5 p-6" noValidate>
        {editing ? (
          <input type="hidden" name="regular_report" value="1" />
        ) : (
          <Section title="作成方法">
            <div className="flex gap-6">
              <Choice name="regular_report" value="0" checked={!regular} label="随時" onChange={() => set('regular_report', '0')} />
              <Choice name="regular_report" value="1" checked={regular} label="定期" onChange={() => setValues((old) => ({ ...old, regular_report: '1', report_type: old.report_type === '4' ? '1' : old.report_type }))} />
            </div>
            {atLimit && <p className="mt-2 text-sm text-amber-700" role="alert">{REPORT_MESSAGES.regularLimit}</p>}
          </Section>
        )}
        {regular && (
          <div>
            <label htmlFor="setting_name" className="label">レポート名</label>
            <input id="setting_name" name="setting_name" className="input" value={values.setting_name} onChange={(e) => set('setting_name', e.target.value)} aria-invalid={fields.setting_name ? true : undefined} />
            <p className="field-error">{fields.setting_name ?? fields.setting_no}</p>
          </div>
        )}
        <div>
          <label htmlFor="file_name" className="label">ファイル名</label>
          <input id="file_name" name="file_name" className="input" value={values.file_name} onChange={(e) => set('file_name', e.target.value)} aria-invalid={fields.file_name ? true : undefined} />
          <p className="field-error">{fields.file_name}</p>
        </div>
        <Section title="期間" error={fields.report_type ?? fields.start_date ?? fields.end_date}>
          <div className="flex flex-wrap gap-6">
            {(['1', '2', '3', '4'] as const).map((type) =>
              type === '4' && regular ? null : (
                <Choice key={type} name="report_type" value={type} checked={values.report_type === type} label={REPORT_TYPE_LABELS[Number(type) as 1]} onChange={() => set('report_type', type)} />
              ),
            )}
          </div>
          <div className="mt-3 flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="start_date" className="text-xs text-slate-500">開始日</label>
              <input id="start_date" name="start_date" type="date" className="input" value={values.start_date} onChange={(e) => set('start_date', e.target.value)} />
            </div>
            {values.report_type === '4' && (
              <div>
                <label htmlFor="end_date" className="text-xs text-slate-500">終了日</label>
                <input id="end_date" name="end_date" type="date" className="input" value={values.end_date} onChange={(e) => set('end_date', e.target.value)} />
              </div>
            )}
          </div>
          <p className="mt-2 text-sm text-slate-600" aria-live="polite">
            {period ? `${formatDate(period.from)} 00:00 〜 ${formatDate(period.to)} 23:50` : ''}
            {values.report_type === '4' && <span className="ml-2 text-xs text-slate-500">（最大3ヶ月）</span>}
          </p>
        </Section>
        <Section title="データ間隔" error={fields.data_interval ?? fields.manual_times}>
          <div className="space-y-3">
            <Choice name="interval_mode" value="every10" checked={values.interval_mode === 'every10'} label="10分毎" onChange={() => set('interval_mode', 'every10')} />
            <div className="flex flex-wrap items-center gap-3">
              <Choice name="interval_mode" value="interval" checked={values.interval_mode === 'interval'} label="間隔を指定" onChange={() => set('interval_mode', 'interval')} />
              <input aria-label="間隔（分）" name="data_interval" inputMode="numeric" className="input w-24" value={values.data_interval} onChange={(e) => set('data_interval', e.target.value)} aria-invalid={fields.data_interval ? true : undefined} />
              <span className="text-sm text-slate-500">分（10〜720、10分単位）</span>
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <Choice name="interval_mode" value="times" checked={values.interval_mode === 'times'} label="時刻を指定" onChange={() => set('interval_mode', 'times')} />
              <input aria-label="指定時刻" name="manual_times" placeholder="08:00, 12:00, 17:00" className="input w-full sm:w-72" value={values.manual_times} onChange={(e) => set('manual_times', e.target.value)} aria-invalid={fields.manual_times ? true : undefined} />
              <span className="text-sm text-slate-500">最大48件</span>
            </div>
          </div>
        </Section>
        <Section title="出力形式">
          <div className="flex gap-6">
            <Choice name="output_format" value="1" checked={values.output_format === '1'} label="PDF" onChange={() => set('output_format', '1')} />
            <Choice name="output_format" value="2" checked={values.output_format === '2'} label="CSV" onChange={() => set('output_format', '2')} />
          </div>
        </Section>
        <Section title="オプション">
          <div className="flex gap-6">
            <label className="inline-flex items-center gap-2 text-sm text-slate-700"><input type="checkbox" name="option1" value="1" checked={values.option1} onChange={(e) => set('option1', e.target.checked)} className={check} />コメント表示</label>
            <label className="inline-flex items-center gap-2 text-sm text-slate-700"><input type="checkbox" name="option2" value="1" checked={values.option2} onChange={(e) => set('option2', e.target.checked)} className={check} />データサマリー</label>
            {/* The appendix is a part of the PDF; the CSV always holds every value. */}
            {values.output_format === '1' ? (
              <label className="inline-flex items-center gap-2 text-sm text-slate-700"><input type="checkbox" name="appendix" value="1" checked={values.appendix} onChange={(e) => set('appendix', e.target.checked)} className={check} />{REPORT_APPENDIX_LABEL}</label>
            ) : (
              <input type="hidden" name="appendix" value={values.appendix ? '1' : '0'} />
            )}
          </div>
        </Section>
        <Section title="メール受信">
          <div className="flex gap-6">
            <Choice name="mail_flg" value="1" checked={mailOn} label="受信する" onChange={() => set('mail_flg', '1')} />
            <Choice name="mail_flg" value="0" checked={!mailOn} label="受信しない" onChange={() => set('mail_flg', '0')} />
          </div>
          {mailOn && (
            <div className="mt-3">
              <label htmlFor="mail_addresses" className="text-xs text-slate-500">宛先メールアドレス（1行に1件）</label>
              <textarea
                id="mail_addresses"
                name="mail_addresses"
                rows={3}
                className="input"
                value={values.mail_addresses}
                onChange={(e) => set('mail_addresses', e.target.value)}
                aria-invalid={fields.mail_addresses ? true : undefined}
                aria-describedby="mail_addresses-error"
              />
              {/* Under the field it is about, not under the attachment choice below. */}
              <p id="mail_addresses-error" className="field-error">{fields.mail_addresses}</p>
            </div>
          )}
          {month && mailOn && (
            <label className="mt-3 inline-flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" name="attachment_flg" value="1" checked={values.attachment_flg} onChange={(e) => set('attachment_flg', e.target.checked)} className={check} />
              レポートを添付する
            </label>
          )}
        </Section>
        <Section title="センサー" error={fields.equipment_ids}>
          {hydrated && sensors.length > 1 && (
            <div className="mb-3 flex flex-wrap gap-2" role="group" aria-label="センサーの一括選択">
              <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => set('equipment_ids', sensors.map((sensor) => sensor.equipmentId))} disabled={allChosen}>
                すべて選択
              </button>
              <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => set('equipment_ids', [])} disabled={values.equipment_ids.length === 0}>
                選択を解除
              </button>
              <span className="self-center text-xs text-slate-500" aria-live="polite">{`${values.equipment_ids.length} / ${sensors.length} 件選択`}</span>
            </div>
          )}
          <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {sensors.map((sensor) => (
              <li key={sensor.equipmentId}>
                <label className={`inline-flex items-center gap-2 text-sm ${sensor.hidden ? 'text-slate-400' : 'text-slate-700'}`} title={sensor.hidden ? '非表示のセンサー' : undefined}>
                  <input type="checkbox" name="equipment_ids" value={sensor.equipmentId} checked={values.equipment_ids.includes(sensor.equipmentId)} onChange={() => toggleSensor(sensor.equipmentId)} className={check} />
                  {sensor.name}
                  {sensor.hidden && <span className="text-xs">（非表示）</span>}
                </label>
              </li>
            ))}
          </ul>
        </Section>
        <div className="flex justify-end gap-2">
          <button type="submit" className="btn-primary" disabled={navigation.state === 'submitting' || atLimit}>
            保存
          </button>
        </div>
      </Form>
      {done && (
        <Modal role="alertdialog" labelledBy="report-done-title" onClose={() => navigate(done.to)}>
          <h2 id="report-done-title" className="text-base font-semibold text-slate-800">{done.message}</h2>
          <div className="mt-6 flex justify-end">
            <Link to={done.to} className="btn-primary" autoFocus>OK</Link>
          </div>
        </Modal>
      )}
    </FormPage>
  );
}
