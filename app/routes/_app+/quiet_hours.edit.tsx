import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormPage } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { getDb } from '~/db/db.server';
import { minuteOfDayText, QUIET_HOURS_TEXTS, QuietHoursSaveSchema } from '~/domain/quiet-hours';
import { appUrl } from '~/domain/urls';
import { requireUser } from '~/http/access.server';
import { getQuietHours } from '~/models/users.server';
import { saveOwnQuietHours } from '~/services/quiet-hours.server';
import type { AppHandle } from './_layout';

// The signed-in user's quiet hours (decision 315): the form of POST /v1/user/quiet_hours, with its schema.

export const handle: AppHandle = { hideDashboardLink: true };
export const meta: MetaFunction = () => [{ title: `${QUIET_HOURS_TEXTS.title} | On-Reco` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const quiet = await getQuietHours(getDb(), viewer.userId);
  return json({ quietStart: quiet ? minuteOfDayText(quiet.startMinute) : '', quietEnd: quiet ? minuteOfDayText(quiet.endMinute) : '' });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: QuietHoursSaveSchema, disableAutoCoercion: true });
  if (submission.status !== 'success') return json({ result: submission.reply(), saved: false }, { status: 400 });
  await saveOwnQuietHours(getDb(), viewer, submission.value, new Date());
  return json({ result: submission.reply(), saved: true });
}

export default function QuietHoursEditPage() {
  const { quietStart, quietEnd } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: actionData?.result ?? null,
    defaultValue: { quiet_start: quietStart, quiet_end: quietEnd },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: QuietHoursSaveSchema, disableAutoCoercion: true }),
  });
  return (
    <FormPage title={QUIET_HOURS_TEXTS.title} closeTo={appUrl.dashboard}>
      <StatusBar tone="success" message={actionData?.saved ? QUIET_HOURS_TEXTS.saved : null} />
      <Form method="post" className="card space-y-5 p-6" {...getFormProps(form)}>
        <p className="text-sm text-slate-600">{QUIET_HOURS_TEXTS.help}</p>
        <div className="grid gap-4 sm:grid-cols-2">
          {(['quiet_start', 'quiet_end'] as const).map((name) => (
            <div key={name}>
              <label htmlFor={fields[name].id} className="label">
                {name === 'quiet_start' ? QUIET_HOURS_TEXTS.start : QUIET_HOURS_TEXTS.end}
              </label>
              <input className="input" {...getInputProps(fields[name], { type: 'time' })} />
              <p className="field-error" id={fields[name].errorId}>
                {fields[name].errors?.[0]}
              </p>
            </div>
          ))}
        </div>
        <div className="flex justify-end">
          <button type="submit" className="btn-primary" disabled={navigation.state === 'submitting'}>
            {QUIET_HOURS_TEXTS.save}
          </button>
        </div>
      </Form>
    </FormPage>
  );
}
