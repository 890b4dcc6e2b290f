import { json } from '@remix-run/node';
import { type StoreListQuery, StoreListQuerySchema } from '~/domain/store-list-schemas';
import { type ChainOverviewQuery, ChainOverviewQuerySchema } from '~/domain/chain-overview-schemas';
import { fieldErrors, searchParamsOf } from './api.server';

/**
 * The dashboard's list query from its search params; 400 with the field errors when one is wrong.
 * Server-only on purpose: a route module that imports the schema keeps it (and zod, 14 KB gzip)
 * in the page's browser code even when only its loader uses it.
 */
export function dashboardQueryOf(request: Request): StoreListQuery {
  const parsed = StoreListQuerySchema.safeParse(searchParamsOf(request));
  if (!parsed.success) throw json({ fields: fieldErrors(parsed.error) }, { status: 400 });
  return parsed.data;
}

/** The chain overview's query (decision 292) from its search params, `view` aside; 400 with the field errors when one is wrong. */
export function chainOverviewQueryOf(request: Request): ChainOverviewQuery {
  const { view: _view, ...params } = searchParamsOf(request);
  const parsed = ChainOverviewQuerySchema.safeParse(params);
  if (!parsed.success) throw json({ fields: fieldErrors(parsed.error) }, { status: 400 });
  return parsed.data;
}
