import { z } from 'zod';
import { bodyNumber, dbText, INT4_MAX, nameText } from './input-schemas';
import { parseCompact } from './japan-time';

// The store master and the store management page (000 §2 Store management, §4, §7;
// 001 §3, §5, §8): the store save of POST /v1/stores (create and update), gateway exchange,
// removal, the gateway PIN, and the pure rules about working states. Field messages are the
// Japanese texts of 001 §5, so the store create and edit forms show them as they are.

export const STORE_MESSAGES = {
  required: '入力してください',
  choose: '選択してください',
  alphanumeric: '半角英数を入力してください',
  digits: '半角数値を入力してください',
  format: 'フォーマットが違います',
  period: '期間の指定が違います',
  banner: '入力に誤りがあります',
  saveFailed: '保存失敗しました。',
  exchangeFailed: '交換に失敗しました',
  removalFailed: '撤去に失敗しました',
  removalConfirm: '本当に撤去してもよろしいですか？',
  // Not in the specifications (they give no message for it): decision 245.
  staffGroup: 'システム管理者・保守のユーザーグループは店舗に割り当てられません',
  // Decision 271, beside the specifications' 選択した会社の店舗グループではありません.
  otherCompanyGroup: '選択した会社のユーザーグループではありません',
  // Decision 277: a manager may unlink only a group they could link back.
  unremovableGroup: 'ご自身で割り当て直せないユーザーグループ（上位・同位の管理者のグループなど）は店舗から外せません',
} as const;

export const maxLength = (max: number) => `${max}文字以内で入力してください`;

export const STORE_ID_MAX = 20;
export const STORE_NO_MAX = 20;
export const STORE_NAME_MAX = 255;
export const ADDRESS_MAX = 255;
export const TEL_MAX = 15;
export const GATEWAY_INFO_MAX = 255;
export const USERGROUPS_MAX = 100;

/** 001 §8: the server's message for a unique value already held by another store. */
export const duplicateMessage = (field: string) => `The same value can not be registered: ${field}`;

/** The unique fields of a store, in the order they are reported, with the form's text (001 §8). */
export const DUPLICATE_FIELD_MESSAGES = {
  store_id: 'この店舗IDは既に使用されています',
  store_no: 'この店舗番号は既に使用されています',
  store_name: 'この店舗名は既に使用されています',
  gateway_info: 'このゲートウェイ情報は既に使用されています',
} as const;
export type UniqueStoreField = keyof typeof DUPLICATE_FIELD_MESSAGES;

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

const requiredText = (max: number) =>
  nameText({ required_error: STORE_MESSAGES.required, invalid_type_error: STORE_MESSAGES.required })
    .trim()
    .min(1, STORE_MESSAGES.required)
    .max(max, maxLength(max));

/** 'YYYYMMDD' (Japan calendar date) → 'YYYY-MM-DD'; 20260231 is refused. */
const compactDate = z
  .string({ required_error: STORE_MESSAGES.required, invalid_type_error: STORE_MESSAGES.format })
  .trim()
  .min(1, STORE_MESSAGES.required)
  .regex(/^\d{8}$/, STORE_MESSAGES.format)
  .refine((value) => parseCompact(value) !== null, STORE_MESSAGES.format)
  .transform((value) => `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`);

/** A user group's id in a store entity. */
export const UsergroupIdSchema = bodyNumber(z.coerce.number({ invalid_type_error: STORE_MESSAGES.choose }).int(STORE_MESSAGES.choose).positive(STORE_MESSAGES.choose).max(INT4_MAX, STORE_MESSAGES.choose));

/**
 * The fields of POST /v1/stores (StoreSaveSchema below; the store import takes them too): the
 * whole store entity, for create and update alike (001 §3, §5). Whether
 * it is a create or an update is decided by the server from store_id. `gateway_info` is
 * required on create; on update null (or leaving it out) clears it, as the edit form sends an
 * empty field as null, while a blank string is refused: it can only be a gateway exchange with
 * nothing typed, which changes nothing. `company_id` is optional: the store's company is its
 * store group's company (a company_id that is not the group's is refused).
 */
export const StoreFieldsSchema = z
  .object({
    store_id: z
      .string({ required_error: STORE_MESSAGES.required, invalid_type_error: STORE_MESSAGES.required })
      .trim()
      .min(1, STORE_MESSAGES.required)
      .regex(/^[A-Za-z0-9]+$/, STORE_MESSAGES.alphanumeric)
      .max(STORE_ID_MAX, maxLength(STORE_ID_MAX)),
    store_no: z
      .string({ required_error: STORE_MESSAGES.required, invalid_type_error: STORE_MESSAGES.digits })
      .trim()
      .min(1, STORE_MESSAGES.required)
      .regex(/^\d+$/, STORE_MESSAGES.digits)
      .max(STORE_NO_MAX, maxLength(STORE_NO_MAX)),
    store_name: requiredText(STORE_NAME_MAX),
    company_id: z.preprocess(blankToUndefined, dbText({ invalid_type_error: STORE_MESSAGES.choose }).trim().max(10, STORE_MESSAGES.choose).optional()),
    prefecture_id: z.preprocess(
      blankToUndefined,
      bodyNumber(z.coerce.number({ required_error: STORE_MESSAGES.choose, invalid_type_error: STORE_MESSAGES.choose }).int(STORE_MESSAGES.choose).min(1, STORE_MESSAGES.choose).max(47, STORE_MESSAGES.choose)),
    ),
    address: requiredText(ADDRESS_MAX),
    tel_no: z.preprocess(
      blankToUndefined,
      z
        .string({ invalid_type_error: STORE_MESSAGES.digits })
        .trim()
        .regex(/^\d+$/, STORE_MESSAGES.digits)
        .max(TEL_MAX, maxLength(TEL_MAX))
        .optional()
        .transform((value) => value ?? null),
    ),
    opening_date: compactDate,
    closing_date: z.preprocess(blankToUndefined, compactDate.optional().transform((value) => value ?? null)),
    storegroup_id: z.preprocess(
      blankToUndefined,
      dbText({ required_error: STORE_MESSAGES.choose, invalid_type_error: STORE_MESSAGES.choose }).trim().min(1, STORE_MESSAGES.choose).max(5, STORE_MESSAGES.choose),
    ),
    usergroup: z
      .array(UsergroupIdSchema, { required_error: STORE_MESSAGES.choose, invalid_type_error: STORE_MESSAGES.choose })
      .min(1, STORE_MESSAGES.choose)
      .max(USERGROUPS_MAX, `ユーザーグループは${USERGROUPS_MAX}件までです`)
      .transform((ids) => [...new Set(ids)]),
    gateway_info: dbText({ invalid_type_error: STORE_MESSAGES.required })
      .trim()
      .min(1, STORE_MESSAGES.required)
      .max(GATEWAY_INFO_MAX, maxLength(GATEWAY_INFO_MAX))
      .nullish()
      .transform((value) => value ?? null),
  });

/** The rule across fields of a store entity: it closes on or after it opens. */
export function checkStorePeriod(store: { opening_date: string; closing_date: string | null }, ctx: z.RefinementCtx): void {
  if (store.closing_date && store.closing_date < store.opening_date) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['closing_date'], message: STORE_MESSAGES.period });
  }
}

export const StoreSaveSchema = StoreFieldsSchema.superRefine(checkStorePeriod);

export type StoreSaveInput = z.infer<typeof StoreSaveSchema>;

const storeIdParam = dbText({ required_error: 'store_id is required', invalid_type_error: 'store_id must be a string' })
  .trim()
  .min(1, 'store_id is required')
  .max(STORE_ID_MAX, `store_id is at most ${STORE_ID_MAX} characters`);

/** GET /v1/stores, GET /v1/stores/pin, GET /v1/store_users (query) and POST /v1/stores/pin (body): the store. */
export const StoreIdSchema = z.object({ store_id: storeIdParam });

/** The store management page's gateway exchange: the new gateway, non-empty after trimming (000 §5). */
export const GatewayExchangeSchema = z.object({
  gateway_info: dbText({ required_error: STORE_MESSAGES.required, invalid_type_error: STORE_MESSAGES.required })
    .trim()
    .min(1, STORE_MESSAGES.required)
    .max(GATEWAY_INFO_MAX, maxLength(GATEWAY_INFO_MAX)),
});

/** POST /v1/stores/gateway: the store and its new gateway (the store management page's exchange, for the API and the CLI). */
export const GatewayExchangeRequestSchema = StoreIdSchema.extend(GatewayExchangeSchema.shape);

/**
 * POST /v1/equipments/removal {store_id, gateway_info}: removes the store's gateway. A
 * non-empty gateway_info must be the store's current gateway (a stale page is refused); the
 * empty string (or leaving it out) means "the store's gateway, whatever it is".
 */
export const RemovalRequestSchema = z.object({
  store_id: storeIdParam,
  gateway_info: dbText({ invalid_type_error: 'gateway_info must be a string' })
    .trim()
    .max(GATEWAY_INFO_MAX, `gateway_info is at most ${GATEWAY_INFO_MAX} characters`)
    .nullish()
    .transform((value) => value ?? ''),
});

// ---- gateway PIN ----

export const PIN_LENGTH = 6;
/** A PIN is valid for 24 hours after it is issued (the worker deletes expired ones). */
export const PIN_VALID_HOURS = 24;

export function pinEffectiveTime(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + PIN_VALID_HOURS * 3_600_000);
}

/** A 6-digit PIN from a random integer below 1,000,000 (leading zeros kept). */
export function pinCodeOf(randomBelowMillion: number): string {
  if (!Number.isInteger(randomBelowMillion) || randomBelowMillion < 0 || randomBelowMillion >= 10 ** PIN_LENGTH) throw new RangeError('PIN source out of range');
  return String(randomBelowMillion).padStart(PIN_LENGTH, '0');
}

// ---- answers ----

const compactDay = z.string().regex(/^\d{8}$/, 'YYYYMMDD');
const compactStamp = z.string().regex(/^\d{14}$/, 'YYYYMMDDHHmmss');
const workingState = z.number().int().nullable();

/** GET /v1/stores (and POST /v1/stores): the store info of 000 §3; the PIN only for the store management roles. */
export const StoreInfoAnswerSchema = z.strictObject({
  store_id: z.string(),
  store_no: z.string(),
  store_name: z.string(),
  company_id: z.string(),
  company_name: z.string(),
  storegroup_id: z.string(),
  storegroup_name: z.string(),
  prefecture_id: z.number().int(),
  prefecture_name: z.string(),
  address: z.string(),
  tel_no: z.string().nullable(),
  opening_date: compactDay,
  closing_date: compactDay.nullable(),
  usergroup: z.array(z.strictObject({ usergroup_id: z.number().int(), usergroup_name: z.string() })),
  gateway_info: z.string().nullable(),
  working_state: workingState,
  diagram_id: z.number().int().nullable(),
  pin_code: z.string().nullable(),
  effective_time: compactStamp.nullable(),
});

export type StoreInfo = z.infer<typeof StoreInfoAnswerSchema>;

/** POST /v1/stores: the saved store (201 created, 200 updated), or only its id when it cannot be read back. */
export const StoreSaveAnswerSchema = z.union([StoreInfoAnswerSchema, z.strictObject({ store_id: z.string() })]);

/** GET and POST /v1/stores/pin: null for a store that cannot hold a PIN (removed). */
export const GatewayPinAnswerSchema = z.strictObject({ pin_code: z.string().regex(/^\d{6}$/).nullable(), effective_time: compactStamp.nullable() });

/** POST /v1/stores/gateway: the working state after the exchange (0 until the new gateway's first upload). */
export const GatewayExchangeAnswerSchema = z.strictObject({ store_id: z.string(), gateway_info: z.string(), working_state: z.number().int().nullable() });

/** POST /v1/equipments/removal. */
export const RemovalAnswerSchema = z.strictObject({ store_id: z.string(), gateway_info: z.string(), working_state: z.literal(2) });

/** A user as the store's user list shows them; the user master's row adds company and groups. */
export const StoreUserSchema = z.strictObject({
  user_id: z.number().int(),
  login_id: z.string(),
  user_name: z.string(),
  tel_no: z.string().nullable(),
  mailaddress1: z.string().nullable(),
  mailaddress2: z.string().nullable(),
  mailaddress3: z.string().nullable(),
  language: z.enum(['JP', 'US']),
  valid_flg: z.number().int(),
  notice_flg: z.number().int(),
  alert_filter: z.number().int(),
  authority: z.number().int(),
});

/** GET /v1/store_users: everyone who can see the store. */
export const StoreUsersAnswerSchema = z.array(StoreUserSchema);

/** GET /v1/store_list: the counts and one page of stores, alarms first. */
export const StoreListAnswerSchema = z.strictObject({
  all_count: z.number().int(),
  alert_count: z.number().int(),
  stores: z.array(
    z.strictObject({
      store_id: z.string(),
      store_no: z.string(),
      store_name: z.string(),
      working_state: workingState,
      receive_sensitivity: z.number().nullable(),
      store_status: z.number().int(),
      alert_messages: z.array(z.string()),
    }),
  ),
});
