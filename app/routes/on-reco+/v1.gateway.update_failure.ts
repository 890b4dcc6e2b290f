import { postUpdateFailure } from '~/domain/api/gateway';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { recordUpdateFailure } from '~/models/gateway-releases.server';

// POST /v1/gateway/update_failure (gateway token): the box rolled back from a version by itself.
export const action = apiAction(postUpdateFailure, async ({ storeId, input, db, now }) => {
  await recordUpdateFailure(db, storeId, input.version, input.reason, now);
  return { stored: true };
});

export const loader = apiNotAllowed(postUpdateFailure.path);
