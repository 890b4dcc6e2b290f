import { listPrefectures as prefecturesCall } from '~/domain/api/lookups';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listPrefectures } from '~/models/lookups.server';

// GET /v1/prefecture?region_id: prefecture_id (JIS code), prefecture_name.
export const loader = apiLoader(prefecturesCall, ({ input, db }) => listPrefectures(db, input.region_id));

export const action = apiNotAllowed(prefecturesCall.path);
