import { type ActionFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation } from '@remix-run/react';
import { AuthCard, ErrorBar } from '~/components/auth-card';
import { getDb } from '~/db/db.server';
import { FORGOT_PASSWORD_ERROR, PasscodeRequestSchema } from '~/domain/auth-schemas';
import { logger } from '~/services/logger.server';
import { issueTemporaryPassword } from '~/services/passwords.server';
import { appUrl } from '~/domain/urls';

export const meta: MetaFunction = () => [{ title: 'Forgot password | On-Reco' }];

// Any failure (unknown account, no mail address, mail not sent) shows the one English text of
// the specification, so the form does not tell which accounts exist.
export async function action({ request }: ActionFunctionArgs) {
  const parsed = PasscodeRequestSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return json({ error: FORGOT_PASSWORD_ERROR }, { status: 400 });
  try {
    await issueTemporaryPassword(getDb(), parsed.data.login_id);
  } catch (error) {
    logger.child({ module: 'passwords' }).warn({ err: error }, 'temporary password not issued');
    return json({ error: FORGOT_PASSWORD_ERROR }, { status: 400 });
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
