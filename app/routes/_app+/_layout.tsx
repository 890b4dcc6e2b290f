import { type LoaderFunctionArgs, type SerializeFrom, json } from '@remix-run/node';
import { Outlet, useLoaderData, useMatches, useRouteLoaderData } from '@remix-run/react';
import { type ReactNode, useEffect } from 'react';
import { Footer } from '~/components/layout/footer';
import { Header } from '~/components/layout/header';
import { PageError } from '~/components/page-error';
import { keepLayoutData } from '~/components/use-live-updates';
import { SESSION_EXPIRED_MESSAGE } from '~/domain/auth-messages';
import { ja } from '~/domain/texts/ja';
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
  return (
    <AppChrome layout={useLoaderData<typeof loader>()}>
      <Outlet />
    </AppChrome>
  );
}

/**
 * A page that failed without a boundary of its own (a 403 of a master page, say) is shown here,
 * inside the header and footer (the layout's loader did load), never as a bare page.
 */
export function ErrorBoundary() {
  const layout = useRouteLoaderData<typeof loader>(APP_LAYOUT_ROUTE);
  const body = <PageError title={ja.pageError.title} />;
  return layout ? <AppChrome layout={layout}>{body}</AppChrome> : <div className="flex min-h-screen flex-col">{body}</div>;
}

const APP_LAYOUT_ROUTE = 'routes/_app+/_layout';

function AppChrome({ layout, children }: { layout: SerializeFrom<typeof loader>; children: ReactNode }) {
  const { viewer, permissions, sessionExpires } = layout;
  const matches = useMatches();
  const hideDashboardLink = matches.some((match) => (match.handle as AppHandle | undefined)?.hideDashboardLink);
  useSessionExpiry(sessionExpires);
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <Header viewer={viewer} permissions={permissions} showDashboardLink={!hideDashboardLink} />
      {/* From 640 px the fixed footer (h-6) sits over this padding, never over content. */}
      <div id={MAIN_CONTENT_ID} tabIndex={-1} className="flex flex-1 flex-col outline-none sm:pb-6">
        {children}
      </div>
      <Footer />
    </div>
  );
}

const MAIN_CONTENT_ID = 'main-content';

/** The first stop of the keyboard (WCAG 2.4.1): past the header's menus to the page itself; shown on focus. */
function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-semibold focus:text-brand-700 focus:shadow-lg focus:ring-2 focus:ring-brand-500"
    >
      {ja.skipToContent}
    </a>
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
