import { z } from 'zod';
import { ALL_ALERT_CODES, type AlertCode, isAlertCode } from './alert-codes';
import { dbText, INT4_MAX, nameText } from './input-schemas';

// Escalation policies (issue 28, docs/decisions/236-escalation.md): ordered steps that tell more
// people the longer an alert stays open and unacknowledged. Pure: the worker's job passes the
// clock and the steps already fired.

/** The channels a step may use; mail is the one every installation has. */
export const ESCALATION_CHANNELS = ['mail', 'webhook', 'push'] as const;
export type EscalationChannel = (typeof ESCALATION_CHANNELS)[number];

export const MAX_ESCALATION_STEPS = 10;
/** A week: a later step would be about an alert nobody watches any more. */
export const MAX_STEP_DELAY_MINUTES = 7 * 24 * 60;

/** The messages of the policy's rules: the API's 400 and the screen's field errors say the same. */
export const ESCALATION_MESSAGES = {
  idInvalid: 'IDが正しくありません。',
  delayRequired: '遅延（分）を入力してください。',
  delayInvalid: `遅延は0〜${MAX_STEP_DELAY_MINUTES}分の整数で入力してください。`,
  channelRequired: '通知手段を1つ以上選択してください。',
  stepsRequired: '段階を1つ以上設定してください。',
  stepsTooMany: `段階は${MAX_ESCALATION_STEPS}個までです。`,
  firstStepDelay: '最初の段階は警報発生時（遅延0分）です。',
  stepOrder: '各段階の遅延は前の段階より長くしてください。',
  stepWho: '通知先（ユーザーグループ、ユーザー、店舗スタッフ、Webhook送信先）を1つ以上選択してください。',
  webhookChannel: 'Webhook送信先を選ぶ場合は通知手段「Webhook」を選択してください。',
  nameRequired: 'ポリシー名を入力してください。',
  nameTooLong: 'ポリシー名は100文字以内で入力してください。',
  codesRequired: '対象の警報を1つ以上選択してください。',
  codeInvalid: `警報コードは ${ALL_ALERT_CODES.join(', ')} のいずれかです。`,
  scopeOne: '店舗グループか店舗（個別設定）のどちらか一方を選択してください。',
  noScope: '店舗グループまたは店舗が存在しません。',
  noWebhook: '存在しないWebhook送信先が選択されています。',
} as const;

const id = z.number({ invalid_type_error: ESCALATION_MESSAGES.idInvalid }).int(ESCALATION_MESSAGES.idInvalid).positive(ESCALATION_MESSAGES.idInvalid).max(INT4_MAX);

export const EscalationStepSchema = z.strictObject({
  delay_minutes: z.number({ required_error: ESCALATION_MESSAGES.delayRequired, invalid_type_error: ESCALATION_MESSAGES.delayInvalid }).int(ESCALATION_MESSAGES.delayInvalid).min(0, ESCALATION_MESSAGES.delayInvalid).max(MAX_STEP_DELAY_MINUTES, ESCALATION_MESSAGES.delayInvalid),
  usergroup_ids: z.array(id).max(50).default([]),
  user_ids: z.array(id).max(200).default([]),
  /** The store's own staff: users of store-user (101) groups linked to the store. */
  store_staff: z.boolean().default(false),
  channels: z.array(z.enum(ESCALATION_CHANNELS)).min(1, ESCALATION_MESSAGES.channelRequired).max(ESCALATION_CHANNELS.length).default(['mail']),
  /** The chain's webhook endpoints this step posts to (with the webhook channel). */
  webhook_ids: z.array(id).max(20).default([]),
  /** Each user's quiet hours hold this step's mail to them until they end (decision 315). */
  quiet_hours: z.boolean().default(false),
});

export type EscalationStepInput = z.input<typeof EscalationStepSchema>;
export type EscalationStep = z.output<typeof EscalationStepSchema>;

const StepsSchema = z
  .array(EscalationStepSchema)
  .min(1, ESCALATION_MESSAGES.stepsRequired)
  .max(MAX_ESCALATION_STEPS, ESCALATION_MESSAGES.stepsTooMany)
  .superRefine((steps, ctx) => {
    if (steps[0] && steps[0].delay_minutes !== 0) ctx.addIssue({ code: 'custom', path: [0, 'delay_minutes'], message: ESCALATION_MESSAGES.firstStepDelay });
    steps.forEach((step, index) => {
      if (index > 0 && step.delay_minutes <= steps[index - 1].delay_minutes) ctx.addIssue({ code: 'custom', path: [index, 'delay_minutes'], message: ESCALATION_MESSAGES.stepOrder });
      const webhooks = step.channels.includes('webhook') && step.webhook_ids.length > 0;
      if (step.usergroup_ids.length === 0 && step.user_ids.length === 0 && !step.store_staff && !webhooks) ctx.addIssue({ code: 'custom', path: [index, 'user_ids'], message: ESCALATION_MESSAGES.stepWho });
      if (step.webhook_ids.length > 0 && !step.channels.includes('webhook')) ctx.addIssue({ code: 'custom', path: [index, 'channels'], message: ESCALATION_MESSAGES.webhookChannel });
    });
  });

/** The stored steps, read back from the database's JSON (validated when written). */
export function parseEscalationSteps(value: unknown): EscalationStep[] {
  return StepsSchema.parse(value);
}

const scopeId = dbText().trim().min(1).max(20);

/** POST /v1/escalation_policy: create (policy_id null) or replace a policy. */
export const EscalationPolicySaveSchema = z
  .strictObject({
    policy_id: id.nullable().default(null),
    policy_name: nameText({ required_error: ESCALATION_MESSAGES.nameRequired }).trim().min(1, ESCALATION_MESSAGES.nameRequired).max(100, ESCALATION_MESSAGES.nameTooLong),
    storegroup_id: scopeId.nullable().default(null),
    store_id: scopeId.nullable().default(null),
    alert_codes: z
      .array(z.string().refine(isAlertCode, ESCALATION_MESSAGES.codeInvalid).transform((value) => value as AlertCode))
      .min(1, ESCALATION_MESSAGES.codesRequired)
      .max(ALL_ALERT_CODES.length),
    steps: StepsSchema,
  })
  .superRefine((policy, ctx) => {
    if ((policy.storegroup_id === null) === (policy.store_id === null)) ctx.addIssue({ code: 'custom', path: ['store_id'], message: ESCALATION_MESSAGES.scopeOne });
  });

export type EscalationPolicySave = z.output<typeof EscalationPolicySaveSchema>;

export const EscalationPolicyDeleteSchema = z.strictObject({ policy_id: id });

export interface EscalationPolicy {
  policyId: number;
  policyName: string;
  storegroupId: string | null;
  storeId: string | null;
  alertCodes: AlertCode[];
  steps: EscalationStep[];
}

/**
 * The policy that governs a store's alert of `code`: the store's own override first, then its
 * store group's; the lowest id when several cover the code. Null: the default notification.
 */
export function policyFor(policies: readonly EscalationPolicy[], code: AlertCode): EscalationPolicy | null {
  const covering = policies.filter((policy) => policy.alertCodes.includes(code));
  const byId = (a: EscalationPolicy, b: EscalationPolicy) => a.policyId - b.policyId;
  return covering.filter((policy) => policy.storeId !== null).sort(byId)[0] ?? covering.sort(byId)[0] ?? null;
}

/** The steps (by index) whose delay has passed at `now` and that have not fired yet. */
export function dueSteps(steps: readonly EscalationStep[], openedAt: Date, now: Date, fired: ReadonlySet<number>): number[] {
  const elapsedMinutes = (now.getTime() - openedAt.getTime()) / 60_000;
  return steps.flatMap((step, index) => (step.delay_minutes <= elapsedMinutes && !fired.has(index) ? [index] : []));
}

// ---- acknowledgement (HACCP principle 5: corrective action) ---------------------------------

export const CORRECTIVE_ACTION_MAX = 100;
export const ACKNOWLEDGE_NOTE_MAX = 200;

export const ACKNOWLEDGE_MESSAGES = {
  actionRequired: '改善措置を選択または入力してください。',
  actionTooLong: `改善措置は${CORRECTIVE_ACTION_MAX}文字以内で入力してください。`,
  noteTooLong: `メモは${ACKNOWLEDGE_NOTE_MAX}文字以内で入力してください。`,
} as const;

const optionalText = (max: number, message: string) =>
  dbText()
    .nullish()
    .transform((value) => value?.trim() ?? '')
    .refine((value) => [...value].length <= max, message);

/**
 * POST /v1/alert_history/acknowledge and the alert page's form: the corrective action is a
 * choice from the list or free text (free text wins when both are given), and an optional note.
 */
export const AlertAcknowledgeSchema = z
  .object({
    store_id: dbText({ required_error: 'store_id is required' }).trim().min(1, 'store_id is required').max(20),
    alert_history_id: z.coerce.number({ invalid_type_error: 'alert_history_id must be a number' }).int('alert_history_id must be a whole number').positive('alert_history_id must be an alert id').max(Number.MAX_SAFE_INTEGER),
    corrective_action: optionalText(CORRECTIVE_ACTION_MAX, ACKNOWLEDGE_MESSAGES.actionTooLong),
    corrective_action_text: optionalText(CORRECTIVE_ACTION_MAX, ACKNOWLEDGE_MESSAGES.actionTooLong),
    note: optionalText(ACKNOWLEDGE_NOTE_MAX, ACKNOWLEDGE_MESSAGES.noteTooLong).transform((value) => (value === '' ? null : value)),
  })
  .transform(({ corrective_action, corrective_action_text, ...rest }) => ({ ...rest, action: corrective_action_text || corrective_action }))
  .refine((value) => value.action !== '', { message: ACKNOWLEDGE_MESSAGES.actionRequired, path: ['corrective_action'] });

export type AlertAcknowledgeInput = z.output<typeof AlertAcknowledgeSchema>;

// ---- the administrators' screen (エスカレーション設定) -----------------------------------------

export const ESCALATION_CHANNEL_LABELS: Record<EscalationChannel, string> = { mail: 'メール', webhook: 'Webhook', push: 'プッシュ通知' };

export const ESCALATION_SCREEN = {
  title: 'エスカレーション設定',
  listTitle: '登録済みのポリシー',
  noPolicies: 'ポリシーは登録されていません。警報は通常の通知先に送られます。',
  newTitle: 'ポリシーの登録',
  editTitle: 'ポリシーの編集',
  name: 'ポリシー名',
  scope: '対象',
  storegroup: '店舗グループ',
  store: '店舗（個別設定）',
  none: '選択しない',
  codes: '対象の警報',
  steps: '段階',
  step: (index: number) => `第${index + 1}段階`,
  delay: '警報発生からの遅延（分）',
  usergroups: 'ユーザーグループ',
  users: 'ユーザー',
  storeStaff: '店舗スタッフ（店舗ユーザーグループ）',
  quietHours: '各ユーザーの「通知しない時間帯」を守る（時間帯の終わりに送信）',
  quietHoursShort: '通知しない時間帯を守る',
  channels: '通知手段',
  webhooks: 'Webhook送信先',
  addStep: '段階を追加',
  removeStep: 'この段階を削除',
  save: '保存',
  cancel: '新規登録に戻る',
  edit: '編集',
  remove: '削除',
  removeConfirm: 'このポリシーを削除しますか？対象の店舗は店舗グループのポリシーか通常の通知に戻ります。',
  saved: 'ポリシーを保存しました。',
  deleted: 'ポリシーを削除しました。',
  failed: '処理できませんでした。画面を更新してやり直してください。',
  override: '店舗個別',
  stepSummary: (delay: number) => (delay === 0 ? '発生時' : `${delay}分後`),
} as const;

/** What the screen offers to choose from (ids with their names). */
export interface EscalationChoices {
  storegroups: { id: string; name: string }[];
  stores: { id: string; name: string }[];
  usergroups: { id: number; name: string }[];
  users: { id: number; name: string }[];
  webhooks: { id: number; name: string }[];
}
