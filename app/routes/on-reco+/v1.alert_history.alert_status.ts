import { listActiveAlerts as activeAlertsCall } from '~/domain/api/alerts';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listActiveAlerts } from '~/models/sensors.server';

// GET /v1/alert_history/alert_status?equipment_id=1,2,3: the active (equipment_id, alert_id)
// pairs of those sensors; sensors of stores the viewer may not see give nothing.
export const loader = apiLoader(activeAlertsCall, async ({ viewer, input, db }) => ({ status: await listActiveAlerts(db, viewer, input.equipment_id) }));

export const action = apiNotAllowed(activeAlertsCall.path);
