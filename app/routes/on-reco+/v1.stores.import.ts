import { importStores as importCall } from '~/domain/api/stores';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { importError } from '~/http/failures.server';
import { importStores } from '~/services/store-import.server';

// POST /v1/stores/import {dry_run, stores: [store entity + usergroup_names + sensors]}: many
// stores with their user groups and sensors, all or nothing (decision 153). Administrators.
export const action = apiAction(importCall, async ({ viewer, input, db, now }) => {
  const result = await importStores(db, viewer, input, now);
  return result.ok ? result.answer : importError(result);
});

export const loader = apiNotAllowed(importCall.path);
