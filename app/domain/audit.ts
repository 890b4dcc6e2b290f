import { z } from 'zod';
import { dbText, INT4_MAX } from './input-schemas';
import { fromJapan, japanParts, parseCompact } from './japan-time';

// The audit trail (issue 13 item 6; decisions 130–134): the query of GET /v1/audit and the
// 監査ログ page (one schema for both), the answer, the kinds a list can be narrowed to, and
// how a row's details read as before / after.

export const AUDIT_PAGE_SIZE = 20;

/** How many broken rows a verification names at most (the first ones in chain order). */
export const AUDIT_BROKEN_LIMIT = 20;

export const AUDIT_MESSAGES = {
  badDate: '日付はYYYYMMDDで入力してください',
  fromAfterTo: '開始日は終了日以前にしてください',
  noRows: '該当する監査ログはありません',
  chainOk: (checked: number) => `改ざんは検出されませんでした（${checked.toLocaleString('ja-JP')}件を検証）`,
  chainBroken: (count: number, checked: number) => `監査ログの改ざんを検出しました：${count}か所（${checked.toLocaleString('ja-JP')}件を検証）`,
} as const;

/** What a verification says of a row (decision 131). */
export type AuditBreakReason = 'content_changed' | 'rows_deleted_before' | 'row_inserted' | 'rows_deleted_after';

export const AUDIT_BREAK_TEXTS: Record<AuditBreakReason, string> = {
  content_changed: '内容が書き換えられています',
  rows_deleted_before: 'この行の前の行が削除されています',
  row_inserted: 'チェーン外から挿入された行です',
  rows_deleted_after: 'この行の後の行が削除されています',
};

/**
 * The kinds a list is narrowed to: a row is of a kind when its target_type is the kind or its
 * action starts with `kind.` (a gateway exchange is a store's row with action gateway.exchange).
 */
export const AUDIT_KINDS = {
  store: '店舗',
  gateway: 'ゲートウェイ',
  gateway_pin: 'ゲートウェイPIN',
  sensor: 'センサ',
  diagram: 'センサ配置図',
  alert_history: '警報停止',
  alert_schedule: '警報停止スケジュール',
  user: 'ユーザー',
  usergroup: 'ユーザーグループ',
  company: '会社',
  storegroup: '店舗グループ',
  notice: 'お知らせ',
  report: 'レポート設定',
  settings_template: '設定テンプレート',
} as const satisfies Record<string, string>;

export type AuditKind = keyof typeof AUDIT_KINDS;

/**
 * What each action of the trail reads as on the 監査ログ page (decision 275). The writers'
 * `action` is typed by these keys, so an action without a label does not compile; the stored
 * identifier stays the API's and the filter's (GET /v1/audit answers it as it is).
 */
export const AUDIT_ACTION_LABELS = {
  'store.create': '店舗登録',
  'store.update': '店舗情報変更',
  'store.removal': '店舗撤去',
  'store.diagram.set': '表示する配置図の変更',
  'gateway.pair': 'ゲートウェイ接続',
  'gateway.exchange': 'ゲートウェイ交換',
  'gateway.clear': 'ゲートウェイ情報の削除',
  'gateway_pin.reissue': 'ゲートウェイPIN再発行',
  'gateway_release.upload': 'ゲートウェイリリースの登録',
  'gateway_rollout.save': 'ゲートウェイ更新の開始',
  'gateway_rollout.pause': 'ゲートウェイ更新の一時停止',
  'gateway_rollout.resume': 'ゲートウェイ更新の再開',
  'sensor.create': 'センサ登録',
  'sensor.update': 'センサ情報変更',
  'sensor.position.save': 'センサ配置の保存',
  'diagram.upload': '配置図のアップロード',
  'measurement_comment.save': '測定値へのコメント',
  'measurement_comment.remove': '測定値のコメント削除',
  'alert_history.stop': '警報停止',
  'alert_history.acknowledge': '警報の確認',
  'alert_schedule.create': '警報停止時間登録',
  'alert_schedule.update': '警報停止時間変更',
  'alert_schedule.delete': '警報停止時間削除',
  'escalation_policy.save': 'エスカレーション設定の保存',
  'escalation_policy.delete': 'エスカレーション設定の削除',
  'webhook_endpoint.create': 'Webhook送信先の登録',
  'webhook_endpoint.delete': 'Webhook送信先の削除',
  'webhook_delivery.retry': 'Webhook送信の再送',
  'haccp_record.sign': 'HACCP記録の確認・署名',
  'settings_template.create': '設定テンプレート登録',
  'settings_template.update': '設定テンプレート変更',
  'settings_template.delete': '設定テンプレート削除',
  'settings_template.apply': '設定テンプレートの適用',
  'user.create': 'ユーザー登録',
  'user.update': 'ユーザー情報変更',
  'user.delete': 'ユーザー削除',
  'user.password_change': 'パスワード変更',
  'user.quiet_hours': '通知しない時間帯の変更',
  'user.temporary_password': '仮パスワード発行',
  'usergroup.create': 'ユーザーグループ登録',
  'usergroup.update': 'ユーザーグループ変更',
  'usergroup.delete': 'ユーザーグループ削除',
  'company.create': '会社登録',
  'company.update': '会社情報変更',
  'company.delete': '会社削除',
  'storegroup.create': '店舗グループ登録',
  'storegroup.update': '店舗グループ変更',
  'storegroup.delete': '店舗グループ削除',
  'notice.create': 'お知らせ作成',
  'report.create': 'レポート作成',
  'regular_report.create': '定期レポート登録',
  'regular_report.update': '定期レポート変更',
  'regular_report.delete': '定期レポート削除',
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

/** The kinds of target a row names, for the page's 対象 column. */
export const AUDIT_TARGET_LABELS: Record<string, string> = {
  ...AUDIT_KINDS,
  regular_report: '定期レポート設定',
  escalation_policy: 'エスカレーション設定',
  webhook_endpoint: 'Webhook送信先',
  webhook_delivery: 'Webhook送信',
  haccp_signoff: 'HACCP記録',
};

/** A row's action as the page shows it; an action the table does not know (an older row) as stored. */
export const auditActionLabel = (action: string): string => (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;

/** A row's target type as the page shows it; an unknown one as stored. */
export const auditTargetLabel = (targetType: string): string => AUDIT_TARGET_LABELS[targetType] ?? targetType;

const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());

/** YYYYMMDD (or YYYY-MM-DD as a date input sends it), Japan time. */
const dateField = optional(
  z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().replace(/^(\d{4})[-/](\d{2})[-/](\d{2})$/, '$1$2$3') : value),
    z.string().refine((value) => /^\d{8}$/.test(value) && parseCompact(value) !== null, AUDIT_MESSAGES.badDate),
  ),
);

const idField = (field: string) => z.coerce.number({ invalid_type_error: `${field} must be a number` }).int(`${field} must be a whole number`).min(1).max(INT4_MAX);

// GET /v1/audit and the 監査ログ page: the period (both days inclusive, Japan time), who, which
// store, what kind, and the page.
export const AuditQuerySchema = z
  .object({
    from: dateField,
    to: dateField,
    user_id: optional(idField('user_id')),
    store_id: optional(dbText().trim().max(20)),
    kind: optional(z.enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]], { message: 'kind is not a known kind' })),
    page_no: z.coerce.number({ invalid_type_error: 'page_no must be a number' }).int('page_no must be a whole number').min(1, 'page_no starts at 1').max(100_000).default(1),
    page_count: z.coerce.number({ invalid_type_error: 'page_count must be a number' }).int('page_count must be a whole number').min(1).max(100, 'page_count is at most 100').default(AUDIT_PAGE_SIZE),
  })
  .superRefine((input, ctx) => {
    if (input.from && input.to && input.from > input.to) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['to'], message: AUDIT_MESSAGES.fromAfterTo });
  });

export type AuditQuery = z.infer<typeof AuditQuerySchema>;

/** The instants a query's period covers: from the start of `from` to the end of `to` (Japan days). */
export function auditPeriod(query: Pick<AuditQuery, 'from' | 'to'>): { since: Date | null; until: Date | null } {
  const dayAfter = (value: string) => {
    const day = japanParts(parseCompact(value)!);
    return fromJapan(day.year, day.month, day.day + 1);
  };
  return { since: query.from ? parseCompact(query.from) : null, until: query.to ? dayAfter(query.to) : null };
}

// ---- the answer ---------------------------------------------------------------------------

export const AuditVerificationSchema = z
  .object({
    ok: z.boolean(),
    checked: z.number().int(),
    broken: z.array(z.object({ audit_id: z.number().int(), reason: z.enum(['content_changed', 'rows_deleted_before', 'row_inserted', 'rows_deleted_after']) }).strict()),
  })
  .strict();

export type AuditVerification = z.infer<typeof AuditVerificationSchema>;

export const AuditRowSchema = z
  .object({
    audit_id: z.number().int(),
    at: z.string().describe('YYYYMMDDHHmmss, Japan time'),
    user_id: z.number().int().nullable(),
    user_name: z.string().nullable().describe('the writer\'s name when the row was written'),
    action: z.string(),
    target_type: z.string(),
    target_id: z.string().nullable(),
    store_id: z.string().nullable(),
    before: z.unknown().describe('the state before the change (null for a creation or an event)'),
    after: z.unknown().describe('the state after the change, or what happened'),
    row_hash: z.string().nullable(),
  })
  .strict();

export type AuditRow = z.infer<typeof AuditRowSchema>;

export const AuditAnswerSchema = z
  .object({
    all_count: z.number().int(),
    page_no: z.number().int(),
    page_count: z.number().int(),
    rows: z.array(AuditRowSchema),
    verification: AuditVerificationSchema,
  })
  .strict();

export type AuditAnswer = z.infer<typeof AuditAnswerSchema>;

/**
 * A row's details as before and after: details { before, after } as the writers record a
 * change; any other details (an event such as a PIN reissue or an upload) are the after.
 */
export function beforeAfterOf(details: unknown): { before: unknown; after: unknown } {
  if (details && typeof details === 'object' && !Array.isArray(details) && ('before' in details || 'after' in details)) {
    const { before = null, after = null, ...rest } = details as Record<string, unknown>;
    const extra = Object.keys(rest).length > 0 ? rest : null;
    return { before, after: extra && after && typeof after === 'object' && !Array.isArray(after) ? { ...(after as object), ...extra } : (after ?? extra) };
  }
  return { before: null, after: details ?? null };
}

/** A value of before / after as lines of `key: value` for the page (nested values as JSON). */
export function auditValueLines(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value !== 'object' || Array.isArray(value)) return [JSON.stringify(value)];
  return Object.entries(value as Record<string, unknown>).map(([key, item]) => `${key}: ${typeof item === 'string' ? item : JSON.stringify(item)}`);
}
