import { json } from '@remix-run/node';
import type { Db } from '~/db/db.server';
import { FORM_FIELD_OF, formValuesFrom, payloadOf, REPORT_MESSAGES, ReportSaveSchema, type ReportFormValues } from '~/domain/report-form';
import { reportUrl } from '~/domain/urls';
import type { Viewer } from '~/models/users.server';
import { saveReport } from '~/services/reports.server';
import { fieldErrors } from './api.server';

// The report create and regular edit forms' action: the posted form as the API's payload, checked
// by the same schema, saved by the same service; errors at the form's fields with the banner.

export type ReportFormResult =
  | { ok: true; done: { message: string; to: string } }
  | { ok: false; values: ReportFormValues; fields: Record<string, string>; failed: string };

export async function reportFormAction(db: Db, viewer: Viewer, request: Request, storeId: string, settingNo: number | null, now: Date) {
  const form = await request.formData();
  const values = formValuesFrom((name) => (form.get(name) === null ? null : String(form.get(name))), (name) => form.getAll(name).map(String));
  if (settingNo !== null) values.regular_report = '1';
  const refuse = (fields: Record<string, string>, status = 400) =>
    json<ReportFormResult>({ ok: false, values, fields: Object.fromEntries(Object.entries(fields).map(([field, message]) => [FORM_FIELD_OF[field.split('.')[0]] ?? field.split('.')[0], message])), failed: REPORT_MESSAGES.banner }, { status });
  const parsed = ReportSaveSchema.safeParse(payloadOf(values, storeId, settingNo));
  if (!parsed.success) return refuse(fieldErrors(parsed.error));
  const result = await saveReport(db, viewer, parsed.data, now);
  if (!result.ok) {
    if (result.reason === 'invalid') return refuse(result.fields);
    return json<ReportFormResult>({ ok: false, values, fields: {}, failed: result.reason === 'not_found' ? '保存失敗しました。' : 'この店舗は撤去済みのため保存できません。' }, { status: result.reason === 'not_found' ? 404 : 409 });
  }
  const regular = parsed.data.regular_report === 1;
  return json<ReportFormResult>({
    ok: true,
    done: { message: regular ? REPORT_MESSAGES.createdRegular : REPORT_MESSAGES.createdSequential, to: reportUrl.list(storeId, regular ? 'reqular' : undefined) },
  });
}
