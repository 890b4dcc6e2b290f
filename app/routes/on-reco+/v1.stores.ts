import { json } from '@remix-run/node';
import { getStore, saveStore as saveStoreCall } from '~/domain/api/stores';
import { can } from '~/domain/roles';
import { apiError } from '~/http/access.server';
import { apiAction, apiLoader } from '~/http/api-route.server';
import { getCurrentPin, getStoreInfo } from '~/models/store-management.server';
import { storeWriteError } from '~/http/failures.server';
import { saveStore } from '~/services/store-gateway.server';

// GET /v1/stores?store_id: the store info (000 §3), for anyone who may see the store. pin_code
// and effective_time are the current PIN for administrators and maintenance (null for others,
// and null when no PIN is valid: GET /v1/stores/pin issues one).
export const loader = apiLoader(getStore, async ({ viewer, input, db, now }) => {
  const store = await getStoreInfo(db, viewer, input.store_id);
  if (!store) throw apiError(404, 'not_found', `Store ${input.store_id} was not found.`);
  const pin = can(viewer.authority, 'storeManagement') ? await getCurrentPin(db, input.store_id, now) : null;
  return { ...store, pin_code: pin?.pin_code ?? null, effective_time: pin?.effective_time ?? null };
});

// POST /v1/stores (JSON, the whole store entity): the shared store save. 201 with the store
// when it was created, 200 when updated; duplicates are 400 "The same value can not be
// registered: <field>" (001 §8).
export const action = apiAction(saveStoreCall, async ({ viewer, input, db, now }) => {
  const result = await saveStore(db, viewer, input, now);
  if (!result.ok) return storeWriteError(result, input.store_id);
  return json(result.store ?? { store_id: input.store_id }, { status: result.created ? 201 : 200 });
});
