import { type ActionFunctionArgs, type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { can } from '~/domain/roles';
import { StoreIdSchema, StoreSaveSchema } from '~/domain/store-schemas';
import { getCurrentPin, getStoreInfo } from '~/models/store-management.server';
import { apiError, requireApiUser } from '~/http/access.server';
import { bodyOf, methodNotAllowed, parseOrThrow, searchParamsOf } from '~/http/api.server';
import { storeWriteError } from '~/http/failures.server';
import { saveStore } from '~/services/store-gateway.server';

// GET /v1/stores?store_id: the store info (000 §3), for anyone who may see the store. pin_code
// and effective_time are the current PIN for administrators and maintenance (null for others,
// and null when no PIN is valid: GET /v1/stores/pin issues one).
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const { store_id } = parseOrThrow(StoreIdSchema, searchParamsOf(request));
  const db = getDb();
  const store = await getStoreInfo(db, viewer, store_id);
  if (!store) throw apiError(404, 'not_found', `Store ${store_id} was not found.`);
  const pin = can(viewer.authority, 'storeManagement') ? await getCurrentPin(db, store_id, new Date()) : null;
  return json({ ...store, pin_code: pin?.pin_code ?? null, effective_time: pin?.effective_time ?? null });
}

// POST /v1/stores (JSON, the whole store entity): the shared store save. 201 with the store
// when it was created, 200 when updated; duplicates are 400 "The same value can not be
// registered: <field>" (001 §8).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const viewer = await requireApiUser(request);
  const input = parseOrThrow(StoreSaveSchema, await bodyOf(request));
  const result = await saveStore(getDb(), viewer, input, new Date());
  if (!result.ok) return storeWriteError(result, input.store_id);
  return json(result.store ?? { store_id: input.store_id }, { status: result.created ? 201 : 200 });
}
