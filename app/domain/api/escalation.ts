import { z } from 'zod';
import { AlertAcknowledgeSchema, EscalationPolicyDeleteSchema, EscalationPolicySaveSchema, EscalationStepSchema } from '../escalation';
import { body, defineCall, jsonAnswer } from './call';

// Escalation policies and the acknowledgement of an alert (issue 28, decisions 236 and 237).

const systemMenu = { kind: 'user', permission: 'systemMenu' } as const;

const PolicySchema = z.strictObject({
  policy_id: z.number().int(),
  policy_name: z.string(),
  storegroup_id: z.string().nullable(),
  store_id: z.string().nullable(),
  alert_codes: z.array(z.string()),
  steps: z.array(EscalationStepSchema),
});

export const listEscalationPolicies = defineCall('listEscalationPolicies', 'GET /on-reco/v1/escalation_policy', {
  summary: 'Every escalation policy (store groups and store overrides)',
  access: systemMenu,
  answer: jsonAnswer(z.strictObject({ policies: z.array(PolicySchema) }), 'The policies by scope.'),
});

export const saveEscalationPolicy = defineCall('saveEscalationPolicy', 'POST /on-reco/v1/escalation_policy', {
  summary: 'Create (policy_id null) or replace an escalation policy',
  description:
    'A policy belongs to a store group (storegroup_id) or, as its override, to one store (store_id), and covers the alert codes listed. Steps are ordered: the first fires when the alert opens (delay_minutes 0), each later one delay_minutes after the opening, while the alert is open, unacknowledged and outside alert-stop windows. Each step names user groups, users and/or the store staff (store-user groups of the store), its channels, and with the webhook channel the webhook endpoints it posts to (webhook_ids; see /v1/webhook_endpoint). Audited.',
  access: systemMenu,
  input: body(EscalationPolicySaveSchema, { maxBytes: 64 * 1024 }),
  answer: jsonAnswer(z.strictObject({ policy_id: z.number().int() }), '201 when created, 200 when replaced.', [201, 200]),
  errors: [
    { status: 400, error: 'invalid_request', when: 'the store group or store does not exist (storegroup_id / store_id), or a step\'s webhook_ids names no webhook endpoint' },
    { status: 404, error: 'not_found', when: 'policy_id is not a policy' },
  ],
});

export const deleteEscalationPolicy = defineCall('deleteEscalationPolicy', 'DELETE /on-reco/v1/escalation_policy', {
  summary: 'Delete an escalation policy (its stores fall back to their group\'s policy or to the default notification)',
  access: systemMenu,
  input: body(EscalationPolicyDeleteSchema),
  answer: jsonAnswer(z.strictObject({ policy_id: z.number().int() }), 'The deleted policy.'),
  errors: [{ status: 404, error: 'not_found', when: 'policy_id is not a policy' }],
});

export const acknowledgeAlert = defineCall('acknowledgeAlert', 'POST /on-reco/v1/alert_history/acknowledge', {
  summary: 'Acknowledge an alert with the corrective action taken (stops its escalation and re-notifications)',
  description:
    'corrective_action is a label from the list or free text in corrective_action_text (which wins); note is optional. The first acknowledgement stands: acknowledging again changes nothing (already_acknowledged 1). A recovered alert may still be acknowledged (the corrective action is recorded after the fact). Audited.',
  access: { kind: 'user', store: 'store_id' },
  input: body(AlertAcknowledgeSchema),
  answer: jsonAnswer(
    z.strictObject({
      alert_history_id: z.number().int(),
      store_id: z.string(),
      acknowledged_date: z.string().regex(/^\d{17}$/),
      acknowledged_by_name: z.string().nullable(),
      corrective_action: z.string(),
      note: z.string().nullable(),
      already_acknowledged: z.union([z.literal(0), z.literal(1)]),
    }),
    'The acknowledgement on record.',
  ),
  errors: [{ status: 404, error: 'not_found', when: 'the store has no such alert' }],
});
