import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { z } from 'zod';
import { getDb } from '~/db/db.server';
import { isAdministrator } from '~/domain/roles';
import { getUserSummary } from '~/models/users.server';
import { apiError, requireApiUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';

const UserQuerySchema = z.object({ user_id: z.coerce.number({ invalid_type_error: 'user_id must be a number' }).int().positive() });

// GET /v1/users?user_id=N: user_id, login_id, user_name, mailaddress1. A user reads their own
// record; administrators read anyone's (the user master has its own paged call).
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const { user_id } = parseOrThrow(UserQuerySchema, searchParamsOf(request));
  if (user_id !== viewer.userId && !isAdministrator(viewer.authority)) throw apiError(403, 'forbidden', 'You may only read your own user.');
  const user = await getUserSummary(getDb(), user_id);
  if (!user) throw apiError(404, 'not_found', `User ${user_id} was not found.`);
  return json(user);
}
