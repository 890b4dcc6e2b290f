import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { StoreIdSchema } from '~/domain/store-schemas';
import { listStoreUsers } from '~/models/store-management.server';
import { apiError, requireApiRole } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';

// GET /v1/store_users?store_id → [{user_id, login_id, user_name, tel_no, mailaddress1..3,
// language, valid_flg, notice_flg, alert_filter, authority}]: everyone who can see the store.
// For the roles that open the store's settings (store users get 403); 404 for a store the
// viewer may not see.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiRole(request, 'storeSettings');
  const { store_id } = parseOrThrow(StoreIdSchema, searchParamsOf(request));
  const users = await listStoreUsers(getDb(), viewer, store_id);
  if (!users) throw apiError(404, 'not_found', `Store ${store_id} was not found.`);
  return json(users);
}
