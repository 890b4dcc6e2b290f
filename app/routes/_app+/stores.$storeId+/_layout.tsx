import { type LoaderFunctionArgs, json, redirect } from '@remix-run/node';
import { Outlet, useLoaderData } from '@remix-run/react';
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
  const { store, permissions } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-1">
      <StoreSidebar storeId={store.storeId} permissions={permissions} />
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}

/** The store itself could not be loaded: the header stays (each store page has its own boundary too). */
export function ErrorBoundary() {
  return <PageError title="店舗" />;
}
