import { json } from '@remix-run/node';
import { deleteStoregroup as deleteCall, listStoregroupMaster, saveStoregroup as saveCall } from '~/domain/api/masters';
import { apiAction, apiActions, apiLoader, queryOrBody } from '~/http/api-route.server';
import { masterWriteError } from '~/http/failures.server';
import { listStoregroupPage } from '~/models/masters.server';
import { deleteStoregroup, saveStoregroup } from '~/services/masters.server';

// GET /v1/storegroup/edit: the store group master's page (all_count, storegroups).
export const loader = apiLoader(listStoregroupMaster, async ({ input, db }) => {
  const page = await listStoregroupPage(db, input);
  return { all_count: page.all_count, storegroups: page.rows };
});

// POST creates or updates (mode, decision 126); DELETE ?storegroup_id deletes one without stores.
export const action = apiActions(
  apiAction(saveCall, async ({ viewer, input, db, now }) => {
    const result = await saveStoregroup(db, viewer, input, now);
    if (!result.ok) return masterWriteError(result);
    return json({ ...result.row, created: result.created }, { status: result.created ? 201 : 200 });
  }),
  apiAction(deleteCall, async ({ viewer, input, db, now }) => {
    const result = await deleteStoregroup(db, viewer, input.storegroup_id, now);
    if (!result.ok) return masterWriteError(result);
    return { deleted: true as const };
  }, { readBody: queryOrBody }),
);
