import { listStores as storeListCall } from '~/domain/api/stores';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listStores } from '~/models/store-list.server';

// GET /v1/store_list: all_count, alert_count and one page of stores, alert messages included.
export const loader = apiLoader(storeListCall, ({ viewer, input, db }) => listStores(db, viewer, input, viewer.language));

export const action = apiNotAllowed(storeListCall.path);
