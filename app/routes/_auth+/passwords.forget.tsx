import { type ActionFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation } from '@remix-run/react';
import { AuthCard, ErrorBar } from '~/components/auth-card';
import { getDb } from '~/db/db.server';
import { FORGOT_PASSWORD_ERROR, PasscodeRequestSchema } from '~/domain/auth-schemas';
import { appUrl } from '~/domain/urls';
import { clientOriginOf } from '~/http/load-context.server';
import { HashingBusy } from '~/services/password.server';
import { PasscodeThrottled, issueTemporaryPassword } from '~/services/passwords.server';

export const meta: MetaFunction = () => [{ title: 'Forgot password | On-Reco' }];

// An unknown account goes on to the confirmation page like a known one, so the form does not
// tell which accounts exist (docs/decisions/090-sign-in-limits.md); the specification's one
// English failure text is for input that is no login id or address, and for a throttled client.
export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = PasscodeRequestSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return json({ error: FORGOT_PASSWORD_ERROR }, { status: 400 });
  try {
    await issueTemporaryPassword(getDb(), parsed.data.login_id, clientOriginOf(context));
  } catch (error) {
    if (!(error instanceof PasscodeThrottled || error instanceof HashingBusy)) throw error;
    return json({ error: FORGOT_PASSWORD_ERROR }, { status: 429 });
  }
  return redirect(appUrl.passwordIssue);
}

export default function ForgotPasswordPage() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <AuthCard title="Forgot your password?">
      <ErrorBar message={result?.error} />
      <p className="mb-4 text-sm text-slate-600">Enter the email address of your account. We will send you a temporary password.</p>
      <Form method="post" className="space-y-4">
        <div>
          <label htmlFor="login_id" className="label">Email address of your account</label>
          <input id="login_id" name="login_id" type="text" inputMode="email" autoComplete="email" className="input" autoFocus />
        </div>
        <button type="submit" className="btn-primary w-full" disabled={navigation.state === 'submitting'}>
          Send
        </button>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link to={appUrl.login} className="text-brand-600 hover:underline">Login</Link>
      </p>
    </AuthCard>
  );
}
