import { json } from '@remix-run/node';
import { deleteUsergroup as deleteCall, listUsergroupMaster, saveUsergroup as saveCall } from '~/domain/api/masters';
import { apiAction, apiActions, apiLoader, queryOrBody } from '~/http/api-route.server';
import { masterWriteError } from '~/http/failures.server';
import { listUsergroupPage } from '~/models/masters.server';
import { deleteUsergroup, saveUsergroup } from '~/services/masters.server';

// GET /v1/usergroups/edit: the user group master's page (all_count, usergroups).
export const loader = apiLoader(listUsergroupMaster, async ({ input, db }) => {
  const page = await listUsergroupPage(db, input);
  return { all_count: page.all_count, usergroups: page.rows };
});

// POST creates (no usergroup_id) or updates; DELETE ?usergroup_id deletes one without members or stores.
export const action = apiActions(
  apiAction(saveCall, async ({ viewer, input, db, now }) => {
    const result = await saveUsergroup(db, viewer, input, now);
    if (!result.ok) return masterWriteError(result);
    return json({ ...result.row, created: result.created }, { status: result.created ? 201 : 200 });
  }),
  apiAction(deleteCall, async ({ viewer, input, db, now }) => {
    const result = await deleteUsergroup(db, viewer, input.usergroup_id, now);
    if (!result.ok) return masterWriteError(result);
    return { deleted: true as const };
  }, { readBody: queryOrBody }),
);
