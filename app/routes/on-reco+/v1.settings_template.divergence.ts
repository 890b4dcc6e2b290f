import { listSettingsDivergences as divergenceCall } from '~/domain/api/settings-templates';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listDifferences, storegroupSeenBy } from '~/models/settings-templates.server';

// GET /v1/settings_template/divergence: the group's sensors that differ from their kind's template.
export const loader = apiLoader(divergenceCall, async ({ viewer, input, db, now }) => {
  if (!(await storegroupSeenBy(db, viewer, input.storegroup_id))) throw apiError(404, 'not_found', `Store group ${input.storegroup_id} was not found.`);
  const found = await listDifferences(db, viewer, input.storegroup_id, now, undefined);
  return { storegroup_id: input.storegroup_id, sensor_count: found.sensorCount, sensors: found.sensors };
});

export const action = apiNotAllowed(divergenceCall.path);
