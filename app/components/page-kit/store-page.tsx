import { useRouteLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';

/** The store layout route, whose loader gives every store page its store. */
const STORE_LAYOUT_ROUTE = 'routes/_app+/stores.$storeId+/_layout';

/** The store of the current /stores/{store_id}/… page, from the store layout's loader. */
export function useStoreHeader(): { storeId: string; storeName: string } | undefined {
  return (useRouteLoaderData(STORE_LAYOUT_ROUTE) as { store?: { storeId: string; storeName: string } } | undefined)?.store;
}

/** A store page's heading: the store name above the title, the page's actions on the right. */
export function StorePageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  const store = useStoreHeader();
  return (
    <div className="mb-5 flex flex-wrap items-end justify-between gap-4">
      <div>
        {store && <p className="text-sm font-medium text-slate-500">{store.storeName}</p>}
        <h1 className="text-xl font-bold text-slate-800">{title}</h1>
      </div>
      {children}
    </div>
  );
}

/** A /stores/{store_id}/… screen: the page body with the store page header. */
export function StorePage({ title, actions, wide = false, children }: { title: ReactNode; actions?: ReactNode; wide?: boolean; children: ReactNode }) {
  return (
    <main className={`mx-auto w-full flex-1 px-4 py-6 sm:px-6 ${wide ? 'max-w-[1400px]' : 'max-w-7xl'}`}>
      <StorePageHeader title={title}>{actions}</StorePageHeader>
      {children}
    </main>
  );
}
