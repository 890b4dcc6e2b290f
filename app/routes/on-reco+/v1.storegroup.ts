import { listStoregroups as storegroupsCall } from '~/domain/api/lookups';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listStoregroups } from '~/models/lookups.server';

// GET /v1/storegroup?company_id: storegroup_id, storegroup_name, company_id, company_name.
export const loader = apiLoader(storegroupsCall, ({ viewer, input, db }) => listStoregroups(db, viewer, input.company_id));

export const action = apiNotAllowed(storegroupsCall.path);
