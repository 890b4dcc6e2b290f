import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Form, useNavigation } from '@remix-run/react';
import { useStackedTable } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { WEBHOOK_FORMAT_CODES, WEBHOOK_FORMATS, WEBHOOK_SCREEN, type WebhookDeadLetterView, WebhookEndpointCreateSchema, type WebhookEndpointView } from '~/domain/webhooks';

// The Webhook送信先 screen's parts (decision 285): the registration form (Conform with the API's
// schema), the endpoints, and the dead letters with "retry now".

export function WebhookEndpointForm({ lastResult, secret, message, failed }: { lastResult: SubmissionResult<string[]> | null; secret: string | null; message: string | null; failed: boolean }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(WebhookEndpointCreateSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: WebhookEndpointCreateSchema }),
  });
  return (
    <section className="card space-y-4 p-6" aria-label={WEBHOOK_SCREEN.formTitle}>
      <StatusBar tone={failed ? 'error' : 'success'} message={message} />
      {secret && (
        <div className="rounded border border-amber-300 bg-amber-50 p-3 text-sm">
          <p className="font-semibold">{WEBHOOK_SCREEN.secret}</p>
          <code className="block break-all" data-testid="webhook-secret">{secret}</code>
        </div>
      )}
      <h2 className="text-base font-semibold">{WEBHOOK_SCREEN.formTitle}</h2>
      <Form method="post" className="grid gap-4 md:grid-cols-[1fr_2fr_auto_auto] md:items-start" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="create" />
        <div>
          <label htmlFor={fields.endpoint_name.id} className="label">{WEBHOOK_SCREEN.name}</label>
          <input className="input" {...getInputProps(fields.endpoint_name, { type: 'text' })} />
          <p className="field-error" id={fields.endpoint_name.errorId}>{fields.endpoint_name.errors?.[0]}</p>
        </div>
        <div>
          <label htmlFor={fields.url.id} className="label">{WEBHOOK_SCREEN.url}</label>
          <input className="input" placeholder="https://" {...getInputProps(fields.url, { type: 'url' })} />
          <p className="field-error" id={fields.url.errorId}>{fields.url.errors?.[0]}</p>
        </div>
        <div>
          <label htmlFor={fields.format.id} className="label">{WEBHOOK_SCREEN.format}</label>
          <select className="input" {...getSelectProps(fields.format)} defaultValue={fields.format.initialValue ?? 'json'}>
            {WEBHOOK_FORMAT_CODES.map((code) => (
              <option key={code} value={code}>{WEBHOOK_FORMATS[code].label}</option>
            ))}
          </select>
          <p className="field-error" id={fields.format.errorId}>{fields.format.errors?.[0]}</p>
        </div>
        <div className="md:pt-6">
          <button type="submit" className="btn-primary" disabled={navigation.state === 'submitting'}>{WEBHOOK_SCREEN.register}</button>
        </div>
      </Form>
    </section>
  );
}

export function WebhookEndpointList({ endpoints }: { endpoints: WebhookEndpointView[] }) {
  const stack = useStackedTable();
  return (
    <section className="card mt-6 overflow-x-auto" aria-label={WEBHOOK_SCREEN.listTitle}>
      <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold">{WEBHOOK_SCREEN.listTitle}</h2>
      {endpoints.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-500">{WEBHOOK_SCREEN.noEndpoints}</p>
      ) : (
        <table ref={stack} className="table-stack w-full text-sm">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="px-4 py-2">ID</th>
              <th className="px-4 py-2">{WEBHOOK_SCREEN.name}</th>
              <th className="px-4 py-2">{WEBHOOK_SCREEN.url}</th>
              <th className="px-4 py-2">{WEBHOOK_SCREEN.format}</th>
              <th className="px-4 py-2">{WEBHOOK_SCREEN.createdAt}</th>
              <th className="px-4 py-2" />
            </tr>
          </thead>
          <tbody>
            {endpoints.map((endpoint) => (
              <tr key={endpoint.endpointId} className="border-t border-slate-100">
                <td className="px-4 py-2">{endpoint.endpointId}</td>
                <td className="px-4 py-2">{endpoint.endpointName}</td>
                <td className="max-w-xs break-all px-4 py-2">{endpoint.url}</td>
                <td className="px-4 py-2">{WEBHOOK_FORMATS[endpoint.format]?.label ?? endpoint.format}</td>
                <td className="whitespace-nowrap px-4 py-2">{endpoint.createdAt}</td>
                <td className="px-4 py-2">
                  <Form method="post" onSubmit={(event) => { if (!window.confirm(WEBHOOK_SCREEN.removeConfirm)) event.preventDefault(); }}>
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="endpoint_id" value={endpoint.endpointId} />
                    <button type="submit" className="btn-secondary" aria-label={`${endpoint.endpointName}を${WEBHOOK_SCREEN.remove}`}>{WEBHOOK_SCREEN.remove}</button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function WebhookDeadLetters({ deliveries }: { deliveries: WebhookDeadLetterView[] }) {
  const stack = useStackedTable();
  return (
    <section className="card mt-6 overflow-x-auto" aria-label={WEBHOOK_SCREEN.deadTitle}>
      <div className="border-b border-slate-200 px-4 py-3">
        <h2 className="text-base font-semibold">{WEBHOOK_SCREEN.deadTitle}</h2>
        <p className="text-xs text-slate-500">{WEBHOOK_SCREEN.deadNote}</p>
      </div>
      {deliveries.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-500">{WEBHOOK_SCREEN.noDead}</p>
      ) : (
        <table ref={stack} className="table-stack w-full text-sm">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="px-4 py-2">{WEBHOOK_SCREEN.endpoint}</th>
              <th className="px-4 py-2">{WEBHOOK_SCREEN.store}</th>
              <th className="px-4 py-2">{WEBHOOK_SCREEN.alert}</th>
              <th className="px-4 py-2">{WEBHOOK_SCREEN.event}</th>
              <th className="px-4 py-2">{WEBHOOK_SCREEN.attempts}</th>
              <th className="px-4 py-2">{WEBHOOK_SCREEN.lastError}</th>
              <th className="px-4 py-2">{WEBHOOK_SCREEN.queuedAt}</th>
              <th className="px-4 py-2" />
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.deliveryId} className="border-t border-slate-100">
                <td className="px-4 py-2">{delivery.endpointName}</td>
                <td className="px-4 py-2">{delivery.storeId}</td>
                <td className="px-4 py-2">{delivery.alertHistoryId}</td>
                <td className="px-4 py-2">{WEBHOOK_SCREEN.events[delivery.event] ?? delivery.event}</td>
                <td className="px-4 py-2">{delivery.attempts}</td>
                <td className="max-w-xs break-all px-4 py-2">{delivery.lastError}</td>
                <td className="whitespace-nowrap px-4 py-2">{delivery.createdAt}</td>
                <td className="px-4 py-2">
                  <Form method="post">
                    <input type="hidden" name="intent" value="retry" />
                    <input type="hidden" name="delivery_id" value={delivery.deliveryId} />
                    <button type="submit" className="btn-secondary">{WEBHOOK_SCREEN.retryNow}</button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
