import { json } from '@remix-run/node';
import { deleteEscalationPolicy as deleteCall, listEscalationPolicies as listCall, saveEscalationPolicy as saveCall } from '~/domain/api/escalation';
import { apiError } from '~/http/access.server';
import { invalidRequest } from '~/http/api.server';
import { apiAction, apiActions, apiLoader } from '~/http/api-route.server';
import { listEscalationPolicies } from '~/models/escalation.server';
import { removeEscalationPolicy, storeEscalationPolicy } from '~/services/escalation-policies.server';

// /v1/escalation_policy: the list, the save (create or replace) and the delete, for administrators.

const toItem = (policy: Awaited<ReturnType<typeof listEscalationPolicies>>[number]) => ({
  policy_id: policy.policyId,
  policy_name: policy.policyName,
  storegroup_id: policy.storegroupId,
  store_id: policy.storeId,
  alert_codes: policy.alertCodes,
  steps: policy.steps,
});

export const loader = apiLoader(listCall, async ({ db }) => ({ policies: (await listEscalationPolicies(db)).map(toItem) }));

export const action = apiActions(
  apiAction(saveCall, async ({ viewer, input, db, now }) => {
    const result = await storeEscalationPolicy(db, viewer, input, now);
    if (result === 'no-scope') return invalidRequest(input.store_id !== null ? { store_id: 'no such store' } : { storegroup_id: 'no such store group' });
    if (result === 'no-webhook') return invalidRequest({ steps: 'webhook_ids names no such webhook endpoint' });
    if (result === 'not-found') throw apiError(404, 'not_found', `No escalation policy ${input.policy_id}.`);
    return json({ policy_id: result.policyId }, { status: result.created ? 201 : 200 });
  }),
  apiAction(deleteCall, async ({ viewer, input, db, now }) => {
    if (!(await removeEscalationPolicy(db, viewer, input.policy_id, now))) throw apiError(404, 'not_found', `No escalation policy ${input.policy_id}.`);
    return { policy_id: input.policy_id };
  }),
);
