import { type ActionFunctionArgs, type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { StoreIdSchema } from '~/domain/store-schemas';
import { requireApiRole, requireApiStoreAccess } from '~/http/access.server';
import { bodyOf, methodNotAllowed, parseOrThrow, searchParamsOf } from '~/http/api.server';
import { storeWriteError } from '~/http/failures.server';
import { getOrIssuePin, reissuePin } from '~/services/store-gateway.server';

// GET /v1/stores/pin?store_id → {pin_code, effective_time}: the store's current gateway PIN,
// issued on the spot when none is valid (null for a removed store). Administrators and
// maintenance only (the store management role).
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiRole(request, 'storeManagement');
  const { store_id } = parseOrThrow(StoreIdSchema, searchParamsOf(request));
  await requireApiStoreAccess(viewer, store_id);
  const pin = await getOrIssuePin(getDb(), viewer, store_id, new Date());
  return json({ pin_code: pin?.pin_code ?? null, effective_time: pin?.effective_time ?? null });
}

// POST /v1/stores/pin {store_id} → {pin_code, effective_time}: reissue; the new PIN replaces the old.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const viewer = await requireApiRole(request, 'storeManagement');
  const { store_id } = parseOrThrow(StoreIdSchema, await bodyOf(request));
  const result = await reissuePin(getDb(), viewer, store_id, new Date());
  if (!result.ok) return storeWriteError(result, store_id);
  return json(result.pin);
}
