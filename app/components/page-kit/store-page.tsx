import { useRouteLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';
import { WorkingStateBadge } from '~/components/store-management/working-state-badge';
import { isRemovedStore } from '~/domain/working-state';

/** The store layout route, whose loader gives every store page its store. */
export const STORE_LAYOUT_ROUTE = 'routes/_app+/stores.$storeId+/_layout';

interface StoreHeader {
  storeId: string;
  storeName: string;
  workingState: number | null;
}

/** The store of the current /stores/{store_id}/… page, from the store layout's loader. */
export function useStoreHeader(): StoreHeader | undefined {
  return (useRouteLoaderData(STORE_LAYOUT_ROUTE) as { store?: StoreHeader } | undefined)?.store;
}

/**
 * The store's name above a store page's title; a removed store (撤去) carries its badge there on
 * every page, so its last readings are never taken for a live store's (issue 11).
 */
export function StoreNameLine({ storeName }: { storeName: string }) {
  const workingState = useStoreHeader()?.workingState ?? null;
  return (
    <p className="flex min-w-0 items-center gap-2 text-sm font-medium text-slate-500">
      <span className="truncate">{storeName}</span>
      {isRemovedStore(workingState) && <WorkingStateBadge state={workingState} />}
    </p>
  );
}

/** A store page's heading: the store name above the title, the page's actions on the right. */
export function StorePageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  const store = useStoreHeader();
  return (
    <div className="mb-5 flex flex-wrap items-end justify-between gap-4">
      <div>
        {store && <StoreNameLine storeName={store.storeName} />}
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
