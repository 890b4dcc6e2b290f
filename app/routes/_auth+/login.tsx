import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation, useSearchParams } from '@remix-run/react';
import { useState } from 'react';
import { AuthCard, ErrorBar } from '~/components/auth-card';
import { Modal } from '~/components/modal';
import { getDb } from '~/db/db.server';
import { SESSION_EXPIRED_MESSAGE } from '~/domain/auth-messages';
import { consoleAuthenticator } from '~/http/access.server';
import { clientOriginOf } from '~/http/load-context.server';
import { LoginError } from '~/services/auth.server';
import { HashingBusy } from '~/services/password.server';
import { SignInThrottled } from '~/services/sign-in-limits.server';
import { createLoginSession, readSession } from '~/http/session.server';
import { lookUpAccessToken } from '~/models/access-tokens.server';
import { appUrl, loginUrl, safeRedirectTarget } from '~/domain/urls';

export const meta: MetaFunction = () => [{ title: 'Login | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { token } = await readSession(request);
  if (token && (await lookUpAccessToken(getDb(), token, new Date())).state === 'valid') throw redirect(redirectTargetOf(request));
  return null;
}

/** The page that sent the reader to sign in (`?redirectTo=`), kept on the form's action URL. */
function redirectTargetOf(request: Request): string {
  return safeRedirectTarget(new URL(request.url).searchParams.get('redirectTo'));
}

export async function action({ request, context }: ActionFunctionArgs) {
  try {
    const auth = await consoleAuthenticator(getDb(), clientOriginOf(context)).authenticate('form', request);
    return createLoginSession(auth, redirectTargetOf(request));
  } catch (error) {
    if (error instanceof LoginError) return json({ error: error.message }, { status: 400 });
    if (error instanceof SignInThrottled) return json({ error: error.message }, { status: 429, headers: { 'Retry-After': String(error.retryAfterSeconds) } });
    if (error instanceof HashingBusy) return json({ error: 'The server is busy. Try again in a moment.' }, { status: 429, headers: { 'Retry-After': '1' } });
    throw error;
  }
}

export default function LoginPage() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const [expiredNotice, setExpiredNotice] = useState(searchParams.get('expired') === '1');
  return (
    <AuthCard title="Sign in to your account">
      {expiredNotice && <ExpiredDialog onClose={() => setExpiredNotice(false)} />}
      <ErrorBar message={actionData?.error} />
      <Form method="post" action={loginUrl({ redirectTo: searchParams.get('redirectTo') })} className="space-y-4">
        <div>
          <label htmlFor="username" className="label">ID</label>
          <input id="username" name="username" autoComplete="username" className="input" autoFocus />
        </div>
        <div>
          <label htmlFor="password" className="label">PASSWORD</label>
          <input id="password" name="password" type="password" autoComplete="current-password" className="input" />
        </div>
        <button type="submit" className="btn-primary w-full" disabled={navigation.state === 'submitting'}>
          LOGIN
        </button>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link to={appUrl.passwordForget} className="text-brand-600 hover:underline">
          Forgot your password?
        </Link>
      </p>
    </AuthCard>
  );
}

function ExpiredDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal role="alertdialog" labelledBy="expired-message" panelClassName="max-w-sm p-6" lang="ja" onClose={onClose}>
      <p id="expired-message" className="mb-6 text-sm text-slate-700">{SESSION_EXPIRED_MESSAGE}</p>
      <div className="text-right">
        <button type="button" className="btn-primary" onClick={onClose} autoFocus>
          OK
        </button>
      </div>
    </Modal>
  );
}
