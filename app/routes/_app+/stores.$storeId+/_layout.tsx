import { type LoaderFunctionArgs, type SerializeFrom, json, redirect } from '@remix-run/node';
import { Outlet, useLoaderData, useRouteLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';
import { STORE_LAYOUT_ROUTE } from '~/components/page-kit/store-page';
import { StoreSidebar } from '~/components/layout/store-sidebar';
import { PageError } from '~/components/page-error';
import { keepLayoutData } from '~/components/use-live-updates';
import { getDb } from '~/db/db.server';
import { menuPermissions } from '~/domain/roles';
import { appUrl } from '~/domain/urls';
import { getStoreHeader } from '~/models/stores.server';
import { requireUser } from '~/http/access.server';

// Every /stores/{store_id}/… screen: the store sidebar beside the page. A store the viewer
// may not see, or that does not exist, goes to /not_found (000 §8).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const store = await getStoreHeader(getDb(), viewer, params.storeId ?? '');
  if (!store) throw redirect(appUrl.notFound);
  return json({
    store,
    permissions: menuPermissions(viewer.authority),
  });
}

// Reloaded with its store or after a form only: a failing page keeps the sidebar (use-live-updates.ts).
export const shouldRevalidate = keepLayoutData;

export default function StoreLayout() {
  return (
    <StoreChrome layout={useLoaderData<typeof loader>()}>
      <Outlet />
    </StoreChrome>
  );
}

/**
 * A store page that failed without a boundary of its own (a 403 of the store edit, say) keeps
 * the store sidebar when the store did load; the header stays either way.
 */
export function ErrorBoundary() {
  const layout = useRouteLoaderData<typeof loader>(STORE_LAYOUT_ROUTE);
  const body = <PageError title="店舗" />;
  return layout ? <StoreChrome layout={layout}>{body}</StoreChrome> : body;
}

function StoreChrome({ layout, children }: { layout: SerializeFrom<typeof loader>; children: ReactNode }) {
  return (
    <div className="flex flex-1">
      <StoreSidebar storeId={layout.store.storeId} permissions={layout.permissions} />
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
