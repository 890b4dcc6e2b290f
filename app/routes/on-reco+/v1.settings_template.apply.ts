import { applySettingsTemplate as applyCall } from '~/domain/api/settings-templates';
import { toCompactDateTime } from '~/domain/japan-time';
import { apiError } from '~/http/access.server';
import { apiAction, apiActions, apiNotAllowed } from '~/http/api-route.server';
import { applyTemplateToGroup } from '~/services/settings-templates.server';

// POST /v1/settings_template/apply: the template to a store group, in one audited step (decision 295).
export const loader = apiNotAllowed(applyCall.path);

export const action = apiActions(
  apiAction(applyCall, async ({ viewer, input, db, now }) => {
    const result = await applyTemplateToGroup(db, viewer, input.template_id, input.storegroup_id, now);
    if (!result.ok) throw apiError(404, 'not_found', result.reason === 'not_found' ? result.description : 'Not found.');
    return { template_id: input.template_id, storegroup_id: input.storegroup_id, store_count: result.stores, sensor_count: result.sensors, applied_at: toCompactDateTime(now) };
  }),
);
