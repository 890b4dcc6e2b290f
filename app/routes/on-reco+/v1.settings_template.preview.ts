import { previewSettingsTemplate as previewCall } from '~/domain/api/settings-templates';
import { apiError } from '~/http/access.server';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { getTemplate, listDifferences, storegroupSeenBy } from '~/models/settings-templates.server';

// GET /v1/settings_template/preview: what applying would change; writes nothing (decision 295).
export const loader = apiLoader(previewCall, async ({ viewer, input, db, now }) => {
  if (!(await getTemplate(db, input.template_id))) throw apiError(404, 'not_found', `No settings template ${input.template_id}.`);
  if (!(await storegroupSeenBy(db, viewer, input.storegroup_id))) throw apiError(404, 'not_found', `Store group ${input.storegroup_id} was not found.`);
  const found = await listDifferences(db, viewer, input.storegroup_id, now, input.template_id);
  return { template_id: input.template_id, storegroup_id: input.storegroup_id, store_count: found.storeCount, sensor_count: found.sensorCount, sensors: found.sensors };
});

export const action = apiNotAllowed(previewCall.path);
