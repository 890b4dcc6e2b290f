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

const id = z.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').positive('must be an id').max(INT4_MAX);

export const EscalationStepSchema = z.strictObject({
  delay_minutes: z.number({ required_error: 'delay_minutes is required', invalid_type_error: 'delay_minutes must be a number' }).int('delay_minutes must be whole minutes').min(0).max(MAX_STEP_DELAY_MINUTES),
  usergroup_ids: z.array(id).max(50).default([]),
  user_ids: z.array(id).max(200).default([]),
  /** The store's own staff: users of store-user (101) groups linked to the store. */
  store_staff: z.boolean().default(false),
  channels: z.array(z.enum(ESCALATION_CHANNELS)).min(1, 'a step needs at least one channel').max(ESCALATION_CHANNELS.length).default(['mail']),
  /** The chain's webhook endpoints this step posts to (with the webhook channel). */
  webhook_ids: z.array(id).max(20).default([]),
});

export type EscalationStepInput = z.input<typeof EscalationStepSchema>;
export type EscalationStep = z.output<typeof EscalationStepSchema>;

const StepsSchema = z
  .array(EscalationStepSchema)
  .min(1, 'a policy needs at least one step')
  .max(MAX_ESCALATION_STEPS, `at most ${MAX_ESCALATION_STEPS} steps`)
  .superRefine((steps, ctx) => {
    if (steps[0] && steps[0].delay_minutes !== 0) ctx.addIssue({ code: 'custom', path: [0, 'delay_minutes'], message: 'the first step fires when the alert opens (delay_minutes 0)' });
    steps.forEach((step, index) => {
      if (index > 0 && step.delay_minutes <= steps[index - 1].delay_minutes) ctx.addIssue({ code: 'custom', path: [index, 'delay_minutes'], message: 'each step comes later than the one before' });
      const webhooks = step.channels.includes('webhook') && step.webhook_ids.length > 0;
      if (step.usergroup_ids.length === 0 && step.user_ids.length === 0 && !step.store_staff && !webhooks) ctx.addIssue({ code: 'custom', path: [index, 'user_ids'], message: 'a step tells someone: user groups, users, the store staff or webhook endpoints' });
      if (step.webhook_ids.length > 0 && !step.channels.includes('webhook')) ctx.addIssue({ code: 'custom', path: [index, 'channels'], message: 'webhook_ids need the webhook channel' });
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
    policy_name: nameText({ required_error: 'policy_name is required' }).trim().min(1, 'policy_name is required').max(100),
    storegroup_id: scopeId.nullable().default(null),
    store_id: scopeId.nullable().default(null),
    alert_codes: z
      .array(z.string().refine(isAlertCode, `one of ${ALL_ALERT_CODES.join(', ')}`).transform((value) => value as AlertCode))
      .min(1, 'alert_codes names at least one code')
      .max(ALL_ALERT_CODES.length),
    steps: StepsSchema,
  })
  .superRefine((policy, ctx) => {
    if ((policy.storegroup_id === null) === (policy.store_id === null)) ctx.addIssue({ code: 'custom', path: ['store_id'], message: 'a policy belongs to a store group or (as its override) to one store: give exactly one' });
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
