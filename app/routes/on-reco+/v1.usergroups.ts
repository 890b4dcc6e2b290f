import { listUsergroups as usergroupsCall } from '~/domain/api/masters';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listUsergroupLookup } from '~/models/masters.server';

// GET /v1/usergroups: usergroup_id, usergroup_name of the groups the user may name in a form.
export const loader = apiLoader(usergroupsCall, ({ viewer, db }) => listUsergroupLookup(db, viewer));

export const action = apiNotAllowed(usergroupsCall.path);
