import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { Outlet, useLoaderData, useMatches } from '@remix-run/react';
import { useEffect } from 'react';
import { Footer } from '~/components/layout/footer';
import { Header } from '~/components/layout/header';
import { keepLayoutData } from '~/components/use-live-updates';
import { SESSION_EXPIRED_MESSAGE } from '~/domain/auth-schemas';
import { menuPermissions } from '~/domain/roles';
import { requireUser } from '~/http/access.server';
import { readSession } from '~/http/session.server';

/** Routes set `handle = { hideDashboardLink: true }` where the header has no dashboard link. */
export interface AppHandle {
  hideDashboardLink?: boolean;
}

// Every signed-in screen: header, popups, footer. Anyone without a valid session goes to /login.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const { expires } = await readSession(request);
  return json({
    viewer: { userName: viewer.userName, mailaddress1: viewer.mailaddress1, authority: viewer.authority },
    permissions: menuPermissions(viewer.authority),
    sessionExpires: expires ?? null,
  });
}

// Reloaded with its params or after a form only: a failing page keeps the header (use-live-updates.ts).
export const shouldRevalidate = keepLayoutData;

export default function AppLayout() {
  const { viewer, permissions, sessionExpires } = useLoaderData<typeof loader>();
  const matches = useMatches();
  const hideDashboardLink = matches.some((match) => (match.handle as AppHandle | undefined)?.hideDashboardLink);
  useSessionExpiry(sessionExpires);
  return (
    <div className="flex min-h-screen flex-col">
      <Header viewer={viewer} permissions={permissions} showDashboardLink={!hideDashboardLink} />
      {/* From 640 px the fixed footer (h-6) sits over this padding, never over content. */}
      <div className="flex flex-1 flex-col sm:pb-6">
        <Outlet />
      </div>
      <Footer />
    </div>
  );
}

/** When the token runs out while the page is open: the alert first, then the login page. */
function useSessionExpiry(expires: string | null) {
  useEffect(() => {
    if (!expires) return;
    const timer = window.setTimeout(() => {
      window.alert(SESSION_EXPIRED_MESSAGE);
      window.location.assign('/login');
    }, Math.max(0, new Date(expires).getTime() - Date.now()));
    return () => window.clearTimeout(timer);
  }, [expires]);
}
