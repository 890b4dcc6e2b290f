import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { parseWithZod } from '@conform-to/zod';
import { Page } from '~/components/page-kit';
import { EscalationPolicyForm, EscalationPolicyList } from '~/components/escalation/escalation-admin';
import { getDb } from '~/db/db.server';
import { ESCALATION_MESSAGES, ESCALATION_SCREEN, EscalationPolicyDeleteSchema, EscalationPolicySaveSchema } from '~/domain/escalation';
import { requireRole } from '~/http/access.server';
import { listEscalationChoices, listEscalationPolicies } from '~/models/escalation.server';
import { removeEscalationPolicy, storeEscalationPolicy } from '~/services/escalation-policies.server';

// /escalation_policies (administrators, システム管理 › エスカレーション設定): the policies by scope,
// and the form that creates one or (?edit=ID) replaces it, through the API's schema and service
// (decisions 236 and 304).

export const meta: MetaFunction = () => [{ title: `${ESCALATION_SCREEN.title} | On-Reco` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'systemMenu');
  const db = getDb();
  const [policies, choices] = await Promise.all([listEscalationPolicies(db), listEscalationChoices(db)]);
  const editId = Number(new URL(request.url).searchParams.get('edit'));
  return json({ policies, choices, editing: policies.find((policy) => policy.policyId === editId) ?? null });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const formData = await request.formData();
  const db = getDb();
  const now = new Date();
  if (formData.has('delete_policy_id')) {
    const parsed = EscalationPolicyDeleteSchema.safeParse({ policy_id: Number(formData.get('delete_policy_id')) });
    const removed = parsed.success && (await removeEscalationPolicy(db, viewer, parsed.data.policy_id, now));
    return json({ result: null, message: removed ? ESCALATION_SCREEN.deleted : ESCALATION_SCREEN.failed, failed: !removed }, { status: removed ? 200 : 404 });
  }
  const submission = parseWithZod(formData, { schema: EscalationPolicySaveSchema });
  if (submission.status !== 'success') return json({ result: submission.reply(), message: null, failed: true }, { status: 400 });
  const saved = await storeEscalationPolicy(db, viewer, submission.value, now);
  if (saved === 'no-scope') return json({ result: submission.reply({ fieldErrors: { [submission.value.store_id !== null ? 'store_id' : 'storegroup_id']: [ESCALATION_MESSAGES.noScope] } }), message: null, failed: true }, { status: 400 });
  if (saved === 'no-webhook') return json({ result: submission.reply({ fieldErrors: { steps: [ESCALATION_MESSAGES.noWebhook] } }), message: null, failed: true }, { status: 400 });
  if (saved === 'not-found') return json({ result: null, message: ESCALATION_SCREEN.failed, failed: true }, { status: 404 });
  return json({ result: submission.reply({ resetForm: true }), message: ESCALATION_SCREEN.saved, failed: false });
}

export default function EscalationPoliciesPage() {
  const { policies, choices, editing } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  return (
    <Page title={ESCALATION_SCREEN.title}>
      <EscalationPolicyForm key={editing?.policyId ?? 'new'} policy={editing} choices={choices} lastResult={outcome?.result ?? null} />
      <EscalationPolicyList policies={policies} choices={choices} message={outcome?.message ?? null} failed={outcome?.failed ?? false} />
    </Page>
  );
}
