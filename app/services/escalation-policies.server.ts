import type { Db } from '~/db/db.server';
import type { EscalationPolicySave } from '~/domain/escalation';
import { audit } from '~/models/audit.server';
import { deleteEscalationPolicy, getEscalationPolicy, policyScopeExists, saveEscalationPolicy } from '~/models/escalation.server';
import type { Viewer } from '~/models/users.server';
import { missingWebhookEndpoints } from '~/models/webhooks.server';

// Administration of escalation policies: each change in one transaction with its audit row
// (before and after), as the other masters are.

export const POLICY_AUDIT_ACTION = { save: 'escalation_policy.save', delete: 'escalation_policy.delete' } as const;

export async function storeEscalationPolicy(db: Db, viewer: Viewer, input: EscalationPolicySave, now: Date): Promise<{ policyId: number; created: boolean } | 'no-scope' | 'no-webhook' | 'not-found'> {
  return db.transaction().execute(async (trx) => {
    if (!(await policyScopeExists(trx, { storegroupId: input.storegroup_id, storeId: input.store_id }))) return 'no-scope';
    if ((await missingWebhookEndpoints(trx, input.steps.flatMap((step) => step.webhook_ids))).length > 0) return 'no-webhook';
    const before = input.policy_id === null ? null : await getEscalationPolicy(trx, input.policy_id);
    if (input.policy_id !== null && !before) return 'not-found';
    const policyId = await saveEscalationPolicy(trx, input, now);
    if (policyId === null) return 'not-found';
    await audit(trx, { at: now, userId: viewer.userId, action: POLICY_AUDIT_ACTION.save, targetType: 'escalation_policy', targetId: policyId, storeId: input.store_id, details: { before, after: { ...input, policy_id: policyId } } });
    return { policyId, created: input.policy_id === null };
  });
}

export async function removeEscalationPolicy(db: Db, viewer: Viewer, policyId: number, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const before = await getEscalationPolicy(trx, policyId);
    if (!before || !(await deleteEscalationPolicy(trx, policyId))) return false;
    await audit(trx, { at: now, userId: viewer.userId, action: POLICY_AUDIT_ACTION.delete, targetType: 'escalation_policy', targetId: policyId, storeId: before.storeId, details: { before, after: null } });
    return true;
  });
}
