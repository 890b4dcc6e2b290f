import { listRegions as regionsCall } from '~/domain/api/lookups';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listRegions } from '~/models/lookups.server';

// GET /v1/region: region_id, region_name.
export const loader = apiLoader(regionsCall, ({ db }) => listRegions(db));

export const action = apiNotAllowed(regionsCall.path);
