import { getStorePin, reissueStorePin } from '~/domain/api/stores';
import { apiAction, apiLoader } from '~/http/api-route.server';
import { storeWriteError } from '~/http/failures.server';
import { getCurrentPin } from '~/models/store-management.server';
import { reissuePin } from '~/services/store-gateway.server';

// GET /v1/stores/pin?store_id → {pin_code, effective_time}: the store's current gateway PIN, null
// when none is valid (a read issues nothing: POST issues one). Administrators and maintenance
// only (the store management role).
export const loader = apiLoader(getStorePin, async ({ input, db, now }) => {
  const pin = await getCurrentPin(db, input.store_id, now);
  return { pin_code: pin?.pin_code ?? null, effective_time: pin?.effective_time ?? null };
});

// POST /v1/stores/pin {store_id} → {pin_code, effective_time}: issue or reissue; the new PIN replaces the old.
export const action = apiAction(reissueStorePin, async ({ viewer, input, db, now }) => {
  const result = await reissuePin(db, viewer, input.store_id, now);
  if (!result.ok) return storeWriteError(result, input.store_id);
  return result.pin;
});
