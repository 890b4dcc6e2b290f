import { listStoreUsers as storeUsersCall } from '~/domain/api/stores';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listStoreUsers } from '~/models/store-management.server';

// GET /v1/store_users?store_id → [{user_id, login_id, user_name, tel_no, mailaddress1..3,
// language, valid_flg, notice_flg, alert_filter, authority}]: everyone who can see the store.
// For the roles that open the store's settings (store users get 403); 404 for a store the
// viewer may not see.
export const loader = apiLoader(storeUsersCall, async ({ viewer, input, db }) => {
  const users = await listStoreUsers(db, viewer, input.store_id);
  if (!users) throw apiError(404, 'not_found', `Store ${input.store_id} was not found.`);
  return users;
});

export const action = apiNotAllowed(storeUsersCall.path);
