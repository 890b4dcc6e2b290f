import { z } from 'zod';
import type { DefrostTime } from './defrost';
import { FURNITURE_KIND_COUNT } from './furniture-kinds';
import { bodyNumber, dbText, INT4_MAX, nameText } from './input-schemas';
import { DEFROST_MAX, DefTimeSchema, readSettingsFields, SENSOR_MESSAGES, type SettingsFields } from './sensor-settings';

// Settings templates (issue 32, decision 295): per furniture kind (icon_kind) the settings a
// sensor keeps over time, applied to the sensors of that kind in a store group. The fields' rules
// are the sensor save's (readSettingsFields), so a template holds only what a sensor may.

export const TEMPLATE_NAME_MAX = 50;
/** How many changed sensors a preview lists (its counts cover them all). */
export const TEMPLATE_PREVIEW_LIMIT = 500;

export const TEMPLATE_MESSAGES = {
  kindTaken: 'この什器種別のテンプレートは既に登録されています',
  saved: 'テンプレートを保存しました。',
  deleted: 'テンプレートを削除しました。',
  applied: (sensors: number, stores: number) => `${stores.toLocaleString('ja-JP')}店舗・${sensors.toLocaleString('ja-JP')}センサにテンプレートを適用しました。`,
  nothing: '変更されるセンサはありません',
} as const;

/** The fields a template sets, in the order the preview and the divergence list show them. */
export const TEMPLATE_FIELDS = [
  { key: 'lower_limit', label: '下限値' },
  { key: 'upper_limit', label: '上限値' },
  { key: 'guard_time', label: 'ガードタイム(分)' },
  { key: 'snoozing_time', label: 'スヌーズ(分)' },
  { key: 'time_constant', label: '時定数(%)' },
  { key: 'def_time', label: 'デフロスト' },
] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number]['key'];

export interface SettingsTemplate extends SettingsFields {
  template_id: number;
  template_name: string;
  icon_kind: number;
  updated_at: string;
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const TemplateRawSchema = z.object({
  template_id: z.preprocess((value) => (blank(value) ? undefined : value), bodyNumber(z.coerce.number({ invalid_type_error: SENSOR_MESSAGES.number }).int().positive().max(INT4_MAX)).optional()),
  template_name: nameText({ required_error: SENSOR_MESSAGES.required, invalid_type_error: SENSOR_MESSAGES.required }).max(1000, `${TEMPLATE_NAME_MAX}文字以内で入力してください`),
  icon_kind: z.unknown().optional(),
  lower_limit: z.unknown().optional(),
  upper_limit: z.unknown().optional(),
  guard_time: z.unknown().optional(),
  snoozing_time: z.unknown().optional(),
  time_constant: z.unknown().optional(),
  def_time: DefTimeSchema,
});

export interface TemplateSave extends SettingsFields {
  template_id: number | null;
  template_name: string;
  icon_kind: number;
}

/** Create (no template_id) or update a template: the sensor save's rules for the settings fields. */
export const TemplateSaveSchema = TemplateRawSchema.transform((raw, ctx): TemplateSave => {
  const name = raw.template_name.trim();
  if (name === '') ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['template_name'], message: SENSOR_MESSAGES.required });
  else if ([...name].length > TEMPLATE_NAME_MAX) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['template_name'], message: `${TEMPLATE_NAME_MAX}文字以内で入力してください` });
  const kindText = typeof raw.icon_kind === 'number' ? String(raw.icon_kind) : typeof raw.icon_kind === 'string' ? raw.icon_kind.trim() : '';
  const kind = /^\d{1,2}$/.test(kindText) ? Number(kindText) : NaN;
  if (blank(raw.icon_kind)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['icon_kind'], message: SENSOR_MESSAGES.choose });
  else if (!(kind >= 1 && kind <= FURNITURE_KIND_COUNT)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['icon_kind'], message: SENSOR_MESSAGES.range });
  const settings = readSettingsFields(raw, ctx);
  return { template_id: raw.template_id ?? null, template_name: name, icon_kind: Number.isNaN(kind) ? 1 : kind, ...settings };
});

export const TemplateSaveDocumentedSchema = z.object({
  template_id: z.number().int().optional().describe('absent when creating'),
  template_name: z.string().max(TEMPLATE_NAME_MAX),
  icon_kind: z.number().int().min(1).max(FURNITURE_KIND_COUNT).describe('the furniture kind; one template per kind'),
  lower_limit: z.number().nullable().optional(),
  upper_limit: z.number().nullable().optional(),
  guard_time: z.number().int().nullable().optional(),
  snoozing_time: z.number().int().nullable().optional(),
  time_constant: z.number().int().nullable().optional(),
  def_time: z.array(z.object({ start: z.string(), end: z.string() })).optional(),
});

const idField = bodyNumber(z.coerce.number({ invalid_type_error: 'template_id is a number' }).int().positive().max(INT4_MAX));
const groupField = dbText({ required_error: 'storegroup_id is required' }).trim().min(1, 'storegroup_id is required').max(20, 'storegroup_id is at most 20 characters');

export const TemplateDeleteSchema = z.object({ template_id: idField });
/** Preview and apply: which template, to which store group. */
export const TemplateApplySchema = z.object({ template_id: idField, storegroup_id: groupField });
export const TemplateDivergenceQuerySchema = z.object({ storegroup_id: groupField });

/** The console form's fields → the save input (def_start_N / def_end_N pairs, both blank dropped). */
export function templateFormInput(form: Record<string, unknown>): Record<string, unknown> {
  const defTime: { start: string; end: string }[] = [];
  for (let index = 0; index < DEFROST_MAX; index++) {
    const start = form[`def_start_${index}`];
    const end = form[`def_end_${index}`];
    if (blank(start) && blank(end)) continue;
    defTime.push({ start: String(start ?? ''), end: String(end ?? '') });
  }
  const fields = Object.fromEntries(Object.entries(form).filter(([name]) => name !== 'intent' && !/^def_(start|end)_\d+$/.test(name)));
  return { ...fields, def_time: defTime };
}

// ---- answers --------------------------------------------------------------------------------

const DefrostSchema = z.array(z.strictObject({ start: z.string(), end: z.string() }));
const SettingsSchema = z.strictObject({
  lower_limit: z.number().nullable(),
  upper_limit: z.number().nullable(),
  guard_time: z.number().int().nullable(),
  snoozing_time: z.number().int().nullable(),
  time_constant: z.number().int().nullable(),
  def_time: DefrostSchema,
});
export type SettingsValues = z.infer<typeof SettingsSchema>;

export const TemplateSchema = SettingsSchema.extend({ template_id: z.number().int(), template_name: z.string(), icon_kind: z.number().int(), updated_at: z.string() });
export const TemplateListAnswerSchema = z.strictObject({ templates: z.array(TemplateSchema) });

/** A sensor whose settings differ from the template: what it has and what the template sets. */
export const SensorDifferenceSchema = z.strictObject({
  store_id: z.string(),
  store_name: z.string(),
  equipment_id: z.number().int(),
  equipment_name: z.string(),
  icon_kind: z.number().int(),
  template_id: z.number().int(),
  fields: z.array(z.enum(TEMPLATE_FIELDS.map((field) => field.key) as [TemplateField, ...TemplateField[]])),
  before: SettingsSchema,
  after: SettingsSchema,
});
export type SensorDifference = z.infer<typeof SensorDifferenceSchema>;

export const TemplatePreviewAnswerSchema = z.strictObject({
  template_id: z.number().int(),
  storegroup_id: z.string(),
  store_count: z.number().int(),
  sensor_count: z.number().int(),
  sensors: z.array(SensorDifferenceSchema).describe(`the first ${TEMPLATE_PREVIEW_LIMIT} by store and sensor`),
});
export type TemplatePreview = z.infer<typeof TemplatePreviewAnswerSchema>;

export const TemplateApplyAnswerSchema = z.strictObject({ template_id: z.number().int(), storegroup_id: z.string(), store_count: z.number().int(), sensor_count: z.number().int(), applied_at: z.string() });

export const TemplateDivergenceAnswerSchema = z.strictObject({ storegroup_id: z.string(), sensor_count: z.number().int(), sensors: z.array(SensorDifferenceSchema) });

/** The fields whose values differ (defrost ranges compared as sorted HH:mm text). */
export function changedFields(before: SettingsValues, after: SettingsValues): TemplateField[] {
  const defrost = (ranges: readonly DefrostTime[]) => ranges.map((range) => `${range.start}-${range.end}`).join(',');
  return TEMPLATE_FIELDS.map((field) => field.key).filter((key) =>
    key === 'def_time' ? defrost(before.def_time) !== defrost(after.def_time) : (before[key] === null ? null : Number(before[key])) !== (after[key] === null ? null : Number(after[key])),
  );
}

/** A field's value as the preview shows it. */
export function settingText(values: SettingsValues, key: TemplateField): string {
  if (key === 'def_time') return values.def_time.length ? values.def_time.map((range) => `${range.start}〜${range.end}`).join(', ') : 'なし';
  const value = values[key];
  return value === null ? '未設定' : String(value);
}
