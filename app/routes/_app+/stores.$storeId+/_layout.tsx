import { type LoaderFunctionArgs, json, redirect } from '@remix-run/node';
import { Outlet, useLoaderData } from '@remix-run/react';
import { StoreSidebar } from '~/components/layout/store-sidebar';
import { getDb } from '~/db/db.server';
import { can } from '~/domain/roles';
import { getStoreHeader } from '~/models/stores.server';
import { requireUser } from '~/http/access.server';

// Every /stores/{store_id}/… screen: the store sidebar beside the page. A store the viewer
// may not see, or that does not exist, goes to /not_found (000 §8).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const store = await getStoreHeader(getDb(), viewer, params.storeId ?? '');
  if (!store) throw redirect('/not_found');
  return json({
    store,
    canOpenSettings: can(viewer.authority, 'storeSettings'),
    canManageStore: can(viewer.authority, 'storeManagement'),
  });
}

export default function StoreLayout() {
  const { store, canOpenSettings, canManageStore } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-1">
      <StoreSidebar storeId={store.storeId} canOpenSettings={canOpenSettings} canManageStore={canManageStore} />
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}
