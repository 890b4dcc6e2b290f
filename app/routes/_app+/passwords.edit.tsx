import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { Form, useActionData, useNavigation, useSearchParams } from '@remix-run/react';
import { useState } from 'react';
import { FormPage } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { getDb } from '~/db/db.server';
import { clientOriginOf } from '~/http/load-context.server';
import { PASSWORD_MESSAGES, PasswordChangeSchema } from '~/domain/auth-schemas';
import { requireUser } from '~/http/access.server';
import { fieldErrors } from '~/http/api.server';
import { logIn } from '~/services/auth.server';
import { PasswordError, changePassword } from '~/services/passwords.server';
import { createLoginSession } from '~/http/session.server';
import type { AppHandle } from './_layout';
import { appUrl, withQuery } from '~/domain/urls';

export const handle: AppHandle = { hideDashboardLink: true };
export const meta: MetaFunction = () => [{ title: 'パスワード変更 | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

type ActionResult = { ok: false; fields: Record<string, string> };

export async function action({ request, context }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const form = Object.fromEntries(await request.formData());
  const parsed = PasswordChangeSchema.safeParse({ ...form, login_id: viewer.loginId });
  if (!parsed.success) return json<ActionResult>({ ok: false, fields: fieldErrors(parsed.error) }, { status: 400 });
  const db = getDb();
  try {
    await changePassword(db, viewer, parsed.data);
  } catch (error) {
    if (error instanceof PasswordError) return json<ActionResult>({ ok: false, fields: { [error.field]: error.message } }, { status: 400 });
    throw error;
  }
  // The change revoked every token of the user: sign this browser in again with the new password.
  return createLoginSession(await logIn(db, viewer.loginId, parsed.data.new_pass, clientOriginOf(context)), withQuery(appUrl.passwordEdit, { changed: 1 }));
}

const FIELDS = [
  ['old_pass', '現在のパスワード', 'current-password'],
  ['new_pass', '新しいパスワード', 'new-password'],
  ['new_pass_verification', '新しいパスワード（確認）', 'new-password'],
] as const;

export default function PasswordEditPage() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [values, setValues] = useState({ old_pass: '', new_pass: '', new_pass_verification: '' });
  const [searchParams] = useSearchParams();
  const changed = searchParams.get('changed') === '1';
  // Enter while the button is disabled (001 §2: until all three are filled) marks the empty
  // fields instead of doing nothing (issue 33 item 8, decision 274).
  const [tried, setTried] = useState(false);
  const empty = FIELDS.filter(([name]) => values[name].length === 0);
  const fields: Record<string, string> = { ...(result?.fields ?? {}), ...(tried ? Object.fromEntries(empty.map(([name]) => [name, PASSWORD_MESSAGES.required])) : {}) };
  const complete = empty.length === 0;
  return (
    <FormPage title="パスワード変更" closeTo={appUrl.dashboard}>
      <StatusBar tone="success" message={changed && !result ? PASSWORD_MESSAGES.success : null} />
      <StatusBar tone="error" message={result ? PASSWORD_MESSAGES.banner : null} />
      <Form
        method="post"
        className="card space-y-5 p-6"
        noValidate
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || complete || !(event.target instanceof HTMLInputElement)) return;
          event.preventDefault();
          setTried(true);
          document.getElementById(empty[0][0])?.focus();
        }}
      >
        {FIELDS.map(([name, label, autoComplete]) => (
          <div key={name}>
            <label htmlFor={name} className="label">{label}</label>
            <input
              id={name}
              name={name}
              type="password"
              autoComplete={autoComplete}
              className="input"
              value={values[name]}
              onChange={(event) => setValues({ ...values, [name]: event.target.value })}
              aria-invalid={fields[name] ? true : undefined}
              aria-describedby={fields[name] ? `${name}-error` : undefined}
            />
            {fields[name] && <p id={`${name}-error`} className="field-error">{fields[name]}</p>}
          </div>
        ))}
        <p className="text-xs text-slate-500">パスワードは12文字以上の半角英数字（英字・数字・_）で入力して下さい。</p>
        <div className="flex flex-wrap items-center justify-end gap-3">
          {!complete && (
            <p id="password-missing" className="text-xs text-slate-600">
              {PASSWORD_MESSAGES.missing(empty.map(([, label]) => label))}
            </p>
          )}
          <button type="submit" className="btn-primary" disabled={!complete || navigation.state === 'submitting'} aria-describedby={complete ? undefined : 'password-missing'}>
            変更する
          </button>
        </div>
      </Form>
    </FormPage>
  );
}
