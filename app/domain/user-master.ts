import { z } from 'zod';
import { bodyNumber, dbText, INT4_MAX, nameText } from './input-schemas';
import { AUTHORITY, roleOf } from './roles';
import { StoreUserSchema } from './store-schemas';

// The user master and the store users (001 §2 User master, Store user create and edit; §3–§5,
// §7, §8): the one input schema of POST /v1/users/edit (user master form, store-user form and
// the API alike), the list query of GET /v1/users/edit, the answers, and the pure rules
// (defaults, the inactive user's forced settings, which authorities a role may assign).

export const USER_MESSAGES = {
  required: '入力してください',
  choose: '選択してください',
  alphanumeric: '半角英数を入力してください',
  digits: '半角数値を入力してください',
  format: 'フォーマットが違います',
  banner: '入力に誤りがあります',
  saveFailed: '保存失敗しました。',
  deleteFailed: '削除に失敗しました。',
  deleteConfirm: 'データを削除しますか？',
  mailRequired: 'メールアドレスを1件以上入力してください',
} as const;

export const USER_NAME_MAX = 50;
export const LOGIN_ID_MAX = 255;
export const USER_TEL_MAX = 15;
export const MAIL_MAX = 255;
export const USER_GROUPS_MAX = 50;
export const USER_PAGE_SIZE = 20;
export const USER_PAGE_COUNT_MAX = 100;

const maxLength = (max: number) => `${max}文字以内で入力してください`;

/** 001 §8: the user form's texts for the server's duplicate errors. */
export const USER_DUPLICATE_MESSAGES = {
  login_id: 'このIDは既に使用されています',
  mailaddress1: 'このメールアドレスは既に使用されています',
} as const;
export type UniqueUserField = keyof typeof USER_DUPLICATE_MESSAGES;

export const LANGUAGE_LABELS = { JP: '日本語', US: '英語' } as const;

/** A new user's defaults (001 §4): active, notify, occurrence only, JP, three empty mails, one empty group select. */
export const NEW_USER_DEFAULTS = {
  valid_flg: 1,
  notice_flg: 1,
  alert_filter: 1,
  language: 'JP' as 'JP' | 'US',
  mailaddress1: '',
  mailaddress2: '',
  mailaddress3: '',
} as const;

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** The loose {email} form of 001 §5: something@something.something, no spaces. */
const LOOSE_MAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const mail = z.preprocess(
  blankToUndefined,
  dbText({ invalid_type_error: USER_MESSAGES.format })
    .trim()
    .max(MAIL_MAX, maxLength(MAIL_MAX))
    .regex(LOOSE_MAIL, USER_MESSAGES.format)
    .optional()
    .transform((value) => value ?? null),
);

const flag = (values: readonly number[]) =>
  bodyNumber(z.coerce.number({ required_error: USER_MESSAGES.choose, invalid_type_error: USER_MESSAGES.choose }).int(USER_MESSAGES.choose).refine((value) => values.includes(value), USER_MESSAGES.choose));

const positiveId = (message: string) => bodyNumber(z.coerce.number({ required_error: message, invalid_type_error: message }).int(message).positive(message).max(INT4_MAX, message));

/**
 * POST /v1/users/edit (001 §7): user_id on edit only; mailaddress1..3 null when empty (at
 * least one); usergroup at least one id (the error names the first select); store_id when the
 * store-user form saves (the store must be one the saver sees). An inactive user is saved with
 * notice_flg 0 and alert_filter 2 (001 §4), whatever was sent.
 */
export const UserSaveSchema = z
  .object({
    user_id: z.preprocess(blankToUndefined, positiveId('user_id must be a positive integer').optional()),
    login_id: dbText({ required_error: USER_MESSAGES.required, invalid_type_error: USER_MESSAGES.required })
      .trim()
      .min(1, USER_MESSAGES.required)
      .regex(/^[A-Za-z0-9]+$/, USER_MESSAGES.alphanumeric)
      .max(LOGIN_ID_MAX, maxLength(LOGIN_ID_MAX)),
    user_name: nameText({ required_error: USER_MESSAGES.required, invalid_type_error: USER_MESSAGES.required })
      .trim()
      .min(1, USER_MESSAGES.required)
      .max(USER_NAME_MAX, maxLength(USER_NAME_MAX)),
    company_id: z.preprocess(
      blankToUndefined,
      dbText({ required_error: USER_MESSAGES.choose, invalid_type_error: USER_MESSAGES.choose }).trim().min(1, USER_MESSAGES.choose).max(10, USER_MESSAGES.choose),
    ),
    tel_no: z.preprocess(
      blankToUndefined,
      z
        .string({ invalid_type_error: USER_MESSAGES.digits })
        .trim()
        .regex(/^\d+$/, USER_MESSAGES.digits)
        .max(USER_TEL_MAX, maxLength(USER_TEL_MAX))
        .optional()
        .transform((value) => value ?? null),
    ),
    mailaddress1: mail,
    mailaddress2: mail,
    mailaddress3: mail,
    language: z.enum(['JP', 'US'], { errorMap: () => ({ message: USER_MESSAGES.choose }) }),
    valid_flg: flag([0, 1]),
    notice_flg: z.preprocess((value) => value ?? 0, flag([0, 1])),
    alert_filter: z.preprocess((value) => value ?? 2, flag([0, 1, 2])),
    usergroup: z
      .array(positiveId(USER_MESSAGES.choose), { required_error: USER_MESSAGES.choose, invalid_type_error: USER_MESSAGES.choose })
      .min(1, USER_MESSAGES.choose)
      .max(USER_GROUPS_MAX, `ユーザーグループは${USER_GROUPS_MAX}件までです`)
      .transform((ids) => [...new Set(ids)]),
    store_id: z.preprocess(blankToUndefined, dbText({ invalid_type_error: 'store_id must be a string' }).trim().max(20, 'store_id is at most 20 characters').optional()),
  })
  .superRefine((user, ctx) => {
    if (!user.mailaddress1 && !user.mailaddress2 && !user.mailaddress3) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['mailaddress1'], message: USER_MESSAGES.mailRequired });
    }
  })
  .transform((user) => (user.valid_flg === 0 ? { ...user, notice_flg: 0, alert_filter: 2 } : user));

export type UserSaveInput = z.infer<typeof UserSaveSchema>;

const optionalNumber = (name: string, max = INT4_MAX) =>
  z.preprocess(blankToUndefined, z.coerce.number({ invalid_type_error: `${name} must be a number` }).int(`${name} must be an integer`).min(0, `${name} must not be negative`).max(max, `${name} is at most ${max}`).optional());

/** GET /v1/users/edit (001 §7): the user master list's page and filters. user_name and mailaddress match a part. */
export const UserListQuerySchema = z.object({
  page_no: z.preprocess(blankToUndefined, z.coerce.number({ invalid_type_error: 'page_no must be a number' }).int().min(1, 'page_no starts at 1').max(INT4_MAX).default(1)),
  page_count: z.preprocess(
    blankToUndefined,
    z.coerce.number({ invalid_type_error: 'page_count must be a number' }).int().min(1, 'page_count is at least 1').max(USER_PAGE_COUNT_MAX, `page_count is at most ${USER_PAGE_COUNT_MAX}`).default(USER_PAGE_SIZE),
  ),
  mailaddress: z.preprocess(blankToUndefined, dbText().trim().max(MAIL_MAX, `mailaddress is at most ${MAIL_MAX} characters`).optional()),
  valid_flg: z.preprocess(blankToUndefined, z.coerce.number({ invalid_type_error: 'valid_flg must be 0 or 1' }).int().min(0, 'valid_flg must be 0 or 1').max(1, 'valid_flg must be 0 or 1').optional()),
  alert_filter: z.preprocess(blankToUndefined, z.coerce.number({ invalid_type_error: 'alert_filter must be 0, 1 or 2' }).int().min(0, 'alert_filter must be 0, 1 or 2').max(2, 'alert_filter must be 0, 1 or 2').optional()),
  usergroup_id: optionalNumber('usergroup_id'),
  user_id: optionalNumber('user_id'),
  user_name: z.preprocess(blankToUndefined, dbText().trim().max(USER_NAME_MAX, `user_name is at most ${USER_NAME_MAX} characters`).optional()),
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

/** DELETE /v1/users/edit?user_id (001 §7). */
export const UserDeleteSchema = z.object({ user_id: positiveId('user_id must be a positive integer') });

export const UserRowSchema = StoreUserSchema.extend({
  company_id: z.string().nullable(),
  company_name: z.string().nullable(),
  usergroups: z.array(z.strictObject({ usergroup_id: z.number().int(), usergroup_name: z.string(), usergroup_authority: z.number().int() })),
});
export type UserRow = z.infer<typeof UserRowSchema>;

/** GET /v1/users/edit: all_count and the page. */
export const UserListAnswerSchema = z.strictObject({ all_count: z.number().int(), users: z.array(UserRowSchema) });

/** POST /v1/users/edit: the saved user (201 created, 200 updated). */
export const UserSaveAnswerSchema = UserRowSchema;

/** DELETE /v1/users/edit. */
export const UserDeleteAnswerSchema = z.strictObject({ user_id: z.number().int(), deleted: z.literal(true) });

/** GET /v1/authority: the authorities the caller may give a user group or a user (authority, authorityName). */
export const AuthorityListAnswerSchema = z.array(z.strictObject({ authority: z.number().int(), authorityName: z.string() }));

// ---- who may assign what (DESIGN.md "Administration: who may do what", Scoped) ----

/** Whether the viewer may give a group of `authority`: administrators any; case and area managers only their own level or less privileged, never administrator or maintenance. */
export function mayAssignAuthority(viewerAuthority: number, authority: number): boolean {
  const role = roleOf(viewerAuthority);
  if (role === 'administrator') return true;
  if (role !== 'caseManager' && role !== 'areaManager') return false;
  const target = roleOf(authority);
  if (target === 'administrator' || target === 'maintenance') return false;
  return authority >= viewerAuthority;
}

/** Whether the viewer may edit or delete a user of `authority`: nobody more privileged than themselves (administrators anyone). */
export function mayManageUserOf(viewerAuthority: number, authority: number): boolean {
  if (roleOf(viewerAuthority) === 'administrator') return true;
  return authority >= viewerAuthority && roleOf(authority) !== 'maintenance' && roleOf(authority) !== 'administrator';
}

export const isAdministratorAuthority = (authority: number) => authority >= AUTHORITY.administrator && authority <= 5;

/** The form's values for an existing user (001 §2: phone without hyphens, missing mails empty). */
export function userFormValues(user: UserRow) {
  return {
    user_id: String(user.user_id),
    login_id: user.login_id,
    user_name: user.user_name,
    company_id: user.company_id ?? '',
    tel_no: (user.tel_no ?? '').replace(/-/g, ''),
    mailaddress1: user.mailaddress1 ?? '',
    mailaddress2: user.mailaddress2 ?? '',
    mailaddress3: user.mailaddress3 ?? '',
    language: user.language,
    valid_flg: user.valid_flg,
    notice_flg: user.notice_flg,
    alert_filter: user.alert_filter,
    usergroup: user.usergroups.map((group) => String(group.usergroup_id)),
  };
}
export type UserFormValues = ReturnType<typeof userFormValues>;
