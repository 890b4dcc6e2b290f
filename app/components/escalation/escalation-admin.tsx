import { type FieldMetadata, getCollectionProps, getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useStackedTable } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { ALL_ALERT_CODES } from '~/domain/alert-codes';
import { ESCALATION_CHANNEL_LABELS, ESCALATION_CHANNELS, ESCALATION_SCREEN, type EscalationChoices, type EscalationPolicy, EscalationPolicySaveSchema, type EscalationStepInput, MAX_ESCALATION_STEPS } from '~/domain/escalation';
import { textsFor } from '~/domain/texts';
import { appUrl } from '~/domain/urls';

// The エスカレーション設定 screen's parts (decision 304): the policy form (Conform with the API's
// schema, steps added and removed as a Conform list) and the policies by scope.

const codeLabel = (code: string) => textsFor('JP').alerts[code as keyof ReturnType<typeof textsFor>['alerts']] ?? code;
const NEW_STEP: EscalationStepInput = { delay_minutes: 0, usergroup_ids: [], user_ids: [], store_staff: false, channels: ['mail'], webhook_ids: [], quiet_hours: false };

function FieldError({ field }: { field: FieldMetadata<unknown> }) {
  return <p className="field-error" id={field.errorId}>{field.errors?.[0]}</p>;
}

/** A step's choice of several ids (user groups, users, webhook endpoints) by name. */
function ChoiceSelect({ field, label, options }: { field: FieldMetadata<number[] | undefined>; label: string; options: { id: number; name: string }[] }) {
  return (
    <div>
      <label htmlFor={field.id} className="label">{label}</label>
      <select className="input h-28" multiple {...getSelectProps(field)}>
        {options.map((option) => <option key={option.id} value={option.id}>{option.name}</option>)}
      </select>
      <FieldError field={field} />
    </div>
  );
}

export function EscalationPolicyForm({ policy, choices, lastResult }: { policy: EscalationPolicy | null; choices: EscalationChoices; lastResult: SubmissionResult<string[]> | null }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `escalation-policy-${policy?.policyId ?? 'new'}`,
    lastResult,
    constraint: getZodConstraint(EscalationPolicySaveSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    defaultValue: policy
      ? { policy_id: policy.policyId, policy_name: policy.policyName, storegroup_id: policy.storegroupId, store_id: policy.storeId, alert_codes: policy.alertCodes, steps: policy.steps }
      : { alert_codes: [...ALL_ALERT_CODES], steps: [NEW_STEP] },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EscalationPolicySaveSchema }),
  });
  const steps = fields.steps.getFieldList();
  const title = policy ? ESCALATION_SCREEN.editTitle : ESCALATION_SCREEN.newTitle;
  return (
    <section className="card space-y-4 p-4 md:p-6" aria-label={title}>
      <h2 className="text-base font-semibold">{title}</h2>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <input {...getInputProps(fields.policy_id, { type: 'hidden' })} />
        <p className="field-error" id={form.errorId}>{form.errors?.[0]}</p>
        <div>
          <label htmlFor={fields.policy_name.id} className="label">{ESCALATION_SCREEN.name}</label>
          <input className="input" {...getInputProps(fields.policy_name, { type: 'text' })} />
          <FieldError field={fields.policy_name} />
        </div>
        <fieldset className="grid gap-4 md:grid-cols-2">
          <legend className="label">{ESCALATION_SCREEN.scope}</legend>
          <div>
            <label htmlFor={fields.storegroup_id.id} className="label">{ESCALATION_SCREEN.storegroup}</label>
            <select className="input" {...getSelectProps(fields.storegroup_id)}>
              <option value="">{ESCALATION_SCREEN.none}</option>
              {choices.storegroups.map((group) => <option key={group.id} value={group.id}>{group.id} {group.name}</option>)}
            </select>
            <FieldError field={fields.storegroup_id} />
          </div>
          <div>
            <label htmlFor={fields.store_id.id} className="label">{ESCALATION_SCREEN.store}</label>
            <select className="input" {...getSelectProps(fields.store_id)}>
              <option value="">{ESCALATION_SCREEN.none}</option>
              {choices.stores.map((store) => <option key={store.id} value={store.id}>{store.id} {store.name}</option>)}
            </select>
            <FieldError field={fields.store_id} />
          </div>
        </fieldset>
        <fieldset>
          <legend className="label">{ESCALATION_SCREEN.codes}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {getCollectionProps(fields.alert_codes, { type: 'checkbox', options: [...ALL_ALERT_CODES] }).map((props) => (
              <label key={props.key} className="inline-flex items-center gap-1">
                <input {...props} key={props.key} />
                {codeLabel(props.value)}
              </label>
            ))}
          </div>
          <FieldError field={fields.alert_codes} />
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="label">{ESCALATION_SCREEN.steps}</legend>
          <FieldError field={fields.steps} />
          {steps.map((step, index) => {
            const stepFields = step.getFieldset();
            return (
              <div key={step.key} className="space-y-3 rounded border border-slate-200 p-3" data-testid="escalation-step">
                <div className="flex items-center justify-between gap-2">
                  <h3 className="text-sm font-semibold">{ESCALATION_SCREEN.step(index)}</h3>
                  {steps.length > 1 && (
                    <button className="btn-secondary" {...form.remove.getButtonProps({ name: fields.steps.name, index })}>{ESCALATION_SCREEN.removeStep}</button>
                  )}
                </div>
                <div className="grid gap-3 md:grid-cols-2">
                  <div>
                    <label htmlFor={stepFields.delay_minutes.id} className="label">{ESCALATION_SCREEN.delay}</label>
                    <input className="input" inputMode="numeric" {...getInputProps(stepFields.delay_minutes, { type: 'number' })} />
                    <FieldError field={stepFields.delay_minutes} />
                  </div>
                  <fieldset>
                    <legend className="label">{ESCALATION_SCREEN.channels}</legend>
                    <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
                      {getCollectionProps(stepFields.channels, { type: 'checkbox', options: [...ESCALATION_CHANNELS] }).map((props) => (
                        <label key={props.key} className="inline-flex items-center gap-1">
                          <input {...props} key={props.key} />
                          {ESCALATION_CHANNEL_LABELS[props.value as keyof typeof ESCALATION_CHANNEL_LABELS]}
                        </label>
                      ))}
                    </div>
                    <FieldError field={stepFields.channels} />
                  </fieldset>
                  <ChoiceSelect field={stepFields.usergroup_ids} label={ESCALATION_SCREEN.usergroups} options={choices.usergroups} />
                  <ChoiceSelect field={stepFields.user_ids} label={ESCALATION_SCREEN.users} options={choices.users} />
                  <label className="inline-flex items-center gap-2 text-sm">
                    <input {...getInputProps(stepFields.store_staff, { type: 'checkbox' })} />
                    {ESCALATION_SCREEN.storeStaff}
                  </label>
                  <ChoiceSelect field={stepFields.webhook_ids} label={ESCALATION_SCREEN.webhooks} options={choices.webhooks} />
                  <label className="inline-flex items-center gap-2 text-sm">
                    <input {...getInputProps(stepFields.quiet_hours, { type: 'checkbox' })} />
                    {ESCALATION_SCREEN.quietHours}
                  </label>
                </div>
              </div>
            );
          })}
          {steps.length < MAX_ESCALATION_STEPS && (
            <button className="btn-secondary" {...form.insert.getButtonProps({ name: fields.steps.name, defaultValue: NEW_STEP })}>{ESCALATION_SCREEN.addStep}</button>
          )}
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-primary" disabled={navigation.state === 'submitting'}>{ESCALATION_SCREEN.save}</button>
          {policy && <Link className="btn-secondary" to={appUrl.escalationPolicies}>{ESCALATION_SCREEN.cancel}</Link>}
        </div>
      </Form>
    </section>
  );
}

export function EscalationPolicyList({ policies, choices, message, failed }: { policies: EscalationPolicy[]; choices: EscalationChoices; message: string | null; failed: boolean }) {
  const stack = useStackedTable();
  const nameOf = (list: { id: number | string; name: string }[], key: number | string) => list.find((item) => item.id === key)?.name ?? String(key);
  return (
    <section className="card mt-6 overflow-x-auto" aria-label={ESCALATION_SCREEN.listTitle}>
      <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold">{ESCALATION_SCREEN.listTitle}</h2>
      <StatusBar tone={failed ? 'error' : 'success'} message={message} />
      {policies.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-500">{ESCALATION_SCREEN.noPolicies}</p>
      ) : (
        <table ref={stack} className="table-stack w-full text-sm">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="px-4 py-2">{ESCALATION_SCREEN.name}</th>
              <th className="px-4 py-2">{ESCALATION_SCREEN.scope}</th>
              <th className="px-4 py-2">{ESCALATION_SCREEN.codes}</th>
              <th className="px-4 py-2">{ESCALATION_SCREEN.steps}</th>
              <th className="px-4 py-2" />
            </tr>
          </thead>
          <tbody>
            {policies.map((policy) => (
              <tr key={policy.policyId} className="border-t border-slate-100 align-top">
                <td className="px-4 py-2">{policy.policyName}</td>
                <td className="px-4 py-2">
                  {policy.storeId !== null ? `${ESCALATION_SCREEN.override}: ${nameOf(choices.stores, policy.storeId)}` : `${ESCALATION_SCREEN.storegroup}: ${nameOf(choices.storegroups, policy.storegroupId ?? '')}`}
                </td>
                <td className="px-4 py-2">{policy.alertCodes.map(codeLabel).join('、')}</td>
                <td className="px-4 py-2">
                  <ol className="list-decimal pl-4">
                    {policy.steps.map((step, index) => (
                      <li key={index}>
                        {ESCALATION_SCREEN.stepSummary(step.delay_minutes)}:{' '}
                        {[
                          ...step.usergroup_ids.map((id) => nameOf(choices.usergroups, id)),
                          ...step.user_ids.map((id) => nameOf(choices.users, id)),
                          ...(step.store_staff ? [ESCALATION_SCREEN.storeStaff] : []),
                          ...step.webhook_ids.map((id) => nameOf(choices.webhooks, id)),
                        ].join('、')}{' '}
                        （{step.channels.map((channel) => ESCALATION_CHANNEL_LABELS[channel]).join('・')}）{step.quiet_hours ? ` ${ESCALATION_SCREEN.quietHoursShort}` : ''}
                      </li>
                    ))}
                  </ol>
                </td>
                <td className="whitespace-nowrap px-4 py-2">
                  <div className="flex gap-2">
                    <Link className="btn-secondary" to={`${appUrl.escalationPolicies}?edit=${policy.policyId}`} aria-label={`${policy.policyName}を${ESCALATION_SCREEN.edit}`}>{ESCALATION_SCREEN.edit}</Link>
                    <Form method="post" onSubmit={(event) => { if (!window.confirm(ESCALATION_SCREEN.removeConfirm)) event.preventDefault(); }}>
                      <input type="hidden" name="delete_policy_id" value={policy.policyId} />
                      <button type="submit" className="btn-secondary" aria-label={`${policy.policyName}を${ESCALATION_SCREEN.remove}`}>{ESCALATION_SCREEN.remove}</button>
                    </Form>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
