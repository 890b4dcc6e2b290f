import { json, type ActionFunctionArgs } from '@remix-run/node';
import { deleteUser as deleteUserCall, listUsers as listUsersCall, saveUser as saveUserCall } from '~/domain/api/users';
import { apiAction, apiLoader, queryOrBody, type ApiRouteFunction } from '~/http/api-route.server';
import { userWriteError } from '~/http/failures.server';
import { listUsers } from '~/models/user-master.server';
import { deleteUser, saveUser } from '~/services/user-master.server';

// GET /v1/users/edit: the user master list (001 §7): all_count and one page of the users the
// caller may see. POST: create or update a user (the user master and store-user forms); DELETE
// ?user_id: delete one. Scoping and refusals: app/services/user-master.server.ts.
export const loader = apiLoader(listUsersCall, async ({ viewer, input, db }) => listUsers(db, viewer, input));

const save = apiAction(saveUserCall, async ({ viewer, input, db, now }) => {
  const result = await saveUser(db, viewer, input, now);
  if (!result.ok) return userWriteError(result);
  return json(result.user, { status: result.created ? 201 : 200 });
});

const remove = apiAction(deleteUserCall, async ({ viewer, input, db, now }) => {
  const result = await deleteUser(db, viewer, input.user_id, now);
  if (!result.ok) return userWriteError(result);
  return { user_id: input.user_id, deleted: true as const };
}, { readBody: queryOrBody });

/** POST saves, DELETE deletes; any other method is 405 with Allow (each declared action answers it). */
export const action: ApiRouteFunction = Object.assign((args: ActionFunctionArgs) => (args.request.method === 'DELETE' ? remove(args) : save(args)), {
  apiCalls: [...save.apiCalls, ...remove.apiCalls],
});
