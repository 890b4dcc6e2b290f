import { getChainOverview as chainOverviewCall } from '~/domain/api/stores';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { getChainOverview } from '~/models/chain-overview.server';

// GET /v1/chain_overview: the chain at a glance (decision 292), the numbers the console's overview shows.
export const loader = apiLoader(chainOverviewCall, ({ viewer, input, db, now }) => getChainOverview(db, viewer, input, viewer.language, now));

export const action = apiNotAllowed(chainOverviewCall.path);
