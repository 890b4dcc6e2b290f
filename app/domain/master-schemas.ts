import { z } from 'zod';
import { bodyNumber, dbText, INT4_MAX, nameText, SMALLINT_MAX } from './input-schemas';

// The system masters (001 §2, §3, §5, §7, §9): user groups, companies and store groups. One
// schema per input, shared by the /on-reco calls and the console's forms and lists.

/** 001 §9: 20 rows per page on every master list. */
export const MASTER_PAGE_SIZE = 20;

export const MASTER_LIMITS = {
  usergroupName: 50,
  companyId: 10,
  companyName: 20,
  storegroupId: 5,
  storegroupName: 50,
} as const;

/** The messages of 001 §5 (and ours for the lengths §5 leaves unworded: decision 125). */
export const MASTER_MESSAGES = {
  required: '入力してください',
  choose: '選択してください',
  alphanumeric: '半角英数を入力してください',
  used: '既に使用されています',
  tooLong: (max: number) => `${max}文字以内で入力してください`,
  banner: '入力に誤りがあります',
  deleteFailed: '削除に失敗しました。',
  saveFailed: '保存に失敗しました。',
  notFound: '該当するデータが見つかりません。',
} as const;

/** Why a delete (or a company change) was refused: the code the API answers and the page's text. */
export const IN_USE_REASONS = {
  company_has_stores: 'この会社には店舗が登録されています。',
  company_has_storegroups: 'この会社には店舗グループが登録されています。',
  storegroup_has_stores: 'この店舗グループには店舗が登録されています。',
  usergroup_has_members: 'このユーザーグループにはユーザーが所属しています。',
  usergroup_has_stores: 'このユーザーグループは店舗に紐づいています。',
  storegroup_company_has_stores: '店舗が登録されている店舗グループの会社は変更できません。',
  last_administrator: '有効な管理者がいなくなるため変更できません。',
} as const;
export type InUseReason = keyof typeof IN_USE_REASONS;

export const isInUseReason = (value: unknown): value is InUseReason => typeof value === 'string' && value in IN_USE_REASONS;

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);
const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

const pageNo = z.coerce.number({ invalid_type_error: 'page_no must be a number' }).int().min(1, 'page_no starts at 1').max(100_000).default(1);
const pageCount = z.coerce.number({ invalid_type_error: 'page_count must be a number' }).int().min(1).max(100, 'page_count is at most 100').default(MASTER_PAGE_SIZE);

const requiredText = (max: number) =>
  nameText({ required_error: MASTER_MESSAGES.required, invalid_type_error: MASTER_MESSAGES.required })
    .trim()
    .min(1, MASTER_MESSAGES.required)
    .refine((value) => [...value].length <= max, MASTER_MESSAGES.tooLong(max));

const alphanumericId = (max: number) =>
  dbText({ required_error: MASTER_MESSAGES.required, invalid_type_error: MASTER_MESSAGES.required })
    .trim()
    .min(1, MASTER_MESSAGES.required)
    .regex(/^[A-Za-z0-9]+$/, MASTER_MESSAGES.alphanumeric)
    .max(max, MASTER_MESSAGES.tooLong(max));

const usergroupIdOf = (message: string) =>
  bodyNumber(z.coerce.number({ required_error: message, invalid_type_error: message }).int(message).positive(message).max(INT4_MAX, message));

/**
 * How a save treats an id (ours, decision 126): `create` refuses an id that exists (the
 * duplicate error of 001 §8), `update` one that does not (404); left out, the call does what 001
 * §7's shared create-and-update call does: creates or updates by the id.
 */
const saveMode = optional(z.enum(['create', 'update'], { errorMap: () => ({ message: 'mode is create or update' }) }));
export type SaveMode = 'create' | 'update' | undefined;

/** A search text: trimmed, at most 100 characters (longer cannot match any name). */
const searchText = optional(dbText().trim().max(100, 'at most 100 characters'));

// ---- user groups ----

export const UsergroupListQuerySchema = z.object({
  page_no: pageNo,
  page_count: pageCount,
  usergroup_id: optional(z.coerce.number({ invalid_type_error: 'usergroup_id must be a number' }).int().positive().max(INT4_MAX)),
  usergroup_name: searchText,
});
export type UsergroupListQuery = z.output<typeof UsergroupListQuerySchema>;

export const UsergroupSaveSchema = z.object({
  usergroup_id: optional(usergroupIdOf('usergroup_id must be a user group id')),
  usergroup_name: requiredText(MASTER_LIMITS.usergroupName),
  usergroup_authority: bodyNumber(
    z.coerce
      .number({ required_error: MASTER_MESSAGES.choose, invalid_type_error: MASTER_MESSAGES.choose })
      .int(MASTER_MESSAGES.choose)
      .min(1, MASTER_MESSAGES.choose)
      .max(SMALLINT_MAX, MASTER_MESSAGES.choose),
  ),
});
export type UsergroupSave = z.output<typeof UsergroupSaveSchema>;

export const UsergroupIdSchema = z.object({ usergroup_id: usergroupIdOf('usergroup_id must be a user group id') });

// ---- companies ----

export const CompanyListQuerySchema = z.object({
  page_no: pageNo,
  page_count: pageCount,
  company_id: optional(dbText().trim().max(MASTER_LIMITS.companyId, 'company_id is at most 10 characters')),
  company_name: searchText,
});
export type CompanyListQuery = z.output<typeof CompanyListQuerySchema>;

export const CompanySaveSchema = z.object({
  company_id: alphanumericId(MASTER_LIMITS.companyId),
  company_name: requiredText(MASTER_LIMITS.companyName),
  mode: saveMode,
});
export type CompanySave = z.output<typeof CompanySaveSchema>;

export const CompanyIdSchema = z.object({ company_id: dbText({ required_error: MASTER_MESSAGES.required }).trim().min(1, MASTER_MESSAGES.required).max(MASTER_LIMITS.companyId, 'company_id is at most 10 characters') });

// ---- store groups ----

export const StoregroupListQuerySchema = z.object({
  page_no: pageNo,
  page_count: pageCount,
  company_id: optional(dbText().trim().max(MASTER_LIMITS.companyId, 'company_id is at most 10 characters')),
  storegroup_id: optional(dbText().trim().max(MASTER_LIMITS.storegroupId, 'storegroup_id is at most 5 characters')),
  storegroup_name: searchText,
});
export type StoregroupListQuery = z.output<typeof StoregroupListQuerySchema>;

export const StoregroupSaveSchema = z.object({
  storegroup_id: alphanumericId(MASTER_LIMITS.storegroupId),
  company_id: dbText({ required_error: MASTER_MESSAGES.choose, invalid_type_error: MASTER_MESSAGES.choose })
    .trim()
    .min(1, MASTER_MESSAGES.choose)
    .max(MASTER_LIMITS.companyId, MASTER_MESSAGES.choose),
  storegroup_name: requiredText(MASTER_LIMITS.storegroupName),
  mode: saveMode,
});
export type StoregroupSave = z.output<typeof StoregroupSaveSchema>;

export const StoregroupIdSchema = z.object({
  storegroup_id: dbText({ required_error: MASTER_MESSAGES.required }).trim().min(1, MASTER_MESSAGES.required).max(MASTER_LIMITS.storegroupId, 'storegroup_id is at most 5 characters'),
});

// ---- answers ----

export const UsergroupLookupSchema = z.array(z.strictObject({ usergroup_id: z.number().int(), usergroup_name: z.string() }));

export const UsergroupRowSchema = z.strictObject({ usergroup_id: z.number().int(), usergroup_name: z.string(), usergroup_authority: z.number().int() });
export type UsergroupRow = z.output<typeof UsergroupRowSchema>;
export const UsergroupPageSchema = z.strictObject({ all_count: z.number().int(), usergroups: z.array(UsergroupRowSchema) });

export const CompanyRowSchema = z.strictObject({ company_id: z.string(), company_name: z.string() });
export type CompanyRow = z.output<typeof CompanyRowSchema>;
export const CompanyPageSchema = z.strictObject({ all_count: z.number().int(), companies: z.array(CompanyRowSchema) });

export const StoregroupRowSchema = z.strictObject({ storegroup_id: z.string(), storegroup_name: z.string(), company_id: z.string(), company_name: z.string() });
export type StoregroupRow = z.output<typeof StoregroupRowSchema>;
export const StoregroupPageSchema = z.strictObject({ all_count: z.number().int(), storegroups: z.array(StoregroupRowSchema) });

/** The answer of a save: what was saved, and whether it was created. */
export const UsergroupSavedSchema = UsergroupRowSchema.extend({ created: z.boolean() }).strict();
export const CompanySavedSchema = CompanyRowSchema.extend({ created: z.boolean() }).strict();
export const StoregroupSavedSchema = StoregroupRowSchema.omit({ company_name: true }).extend({ created: z.boolean() }).strict();

/** The answer of a delete. */
export const DeletedSchema = z.strictObject({ deleted: z.literal(true) });

/** The first message of each field of a failed parse (the forms' client-side check; the server's fieldErrors is the same). */
export function messagesByField(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  return fields;
}

export { DELETE_FAILED_PARAM } from './urls';

/** The user group filters' name search without JavaScript (the options are fetched when opened otherwise). */
export const GROUP_SEARCH_PARAM = 'usergroup_search';

export function deleteFailureText(code: string | null): string | null {
  if (code === null) return null;
  return isInUseReason(code) ? `${MASTER_MESSAGES.deleteFailed}${IN_USE_REASONS[code]}` : MASTER_MESSAGES.deleteFailed;
}
