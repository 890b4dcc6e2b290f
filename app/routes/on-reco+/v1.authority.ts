import { listAuthorities as listAuthoritiesCall } from '~/domain/api/users';
import { mayAssignAuthority } from '~/domain/user-master';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listAuthorities } from '~/models/user-master.server';

// GET /v1/authority: the authority list (001 §7 "not shown"), only the authorities the caller may give.
export const loader = apiLoader(listAuthoritiesCall, async ({ viewer, db }) =>
  (await listAuthorities(db))
    .filter((row) => mayAssignAuthority(viewer.authority, row.authority))
    .map((row) => ({ authority: row.authority, authorityName: row.authority_name })),
);

export const action = apiNotAllowed(listAuthoritiesCall.path);
