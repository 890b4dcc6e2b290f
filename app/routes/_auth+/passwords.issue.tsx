import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { AuthCard } from '~/components/auth-card';
import { appUrl } from '~/domain/urls';

export const meta: MetaFunction = () => [{ title: 'Temporary password issued | On-Reco' }];

export default function PasswordIssuedPage() {
  return (
    <AuthCard title="Transmission complete">
      <p className="mb-6 text-sm leading-relaxed text-slate-600">
        A temporary password has been issued and sent to the email address of your account. Sign in with it, then change your password.
      </p>
      <Link to={appUrl.login} className="btn-primary w-full">
        Return to login
      </Link>
    </AuthCard>
  );
}
