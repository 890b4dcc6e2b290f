import { getUser } from '~/domain/api/auth';
import { isAdministrator } from '~/domain/roles';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { getUserSummary } from '~/models/users.server';

// GET /v1/users?user_id=N: user_id, login_id, user_name, mailaddress1. A user reads their own
// record (user_id left out means their own); administrators read anyone's (the user master has
// its own paged call).
export const loader = apiLoader(getUser, async ({ viewer, input, db }) => {
  const userId = input.user_id ?? viewer.userId;
  if (userId !== viewer.userId && !isAdministrator(viewer.authority)) throw apiError(403, 'forbidden', 'You may only read your own user.');
  const user = await getUserSummary(db, userId);
  if (!user) throw apiError(404, 'not_found', `User ${userId} was not found.`);
  return user;
});

export const action = apiNotAllowed(getUser.path);
