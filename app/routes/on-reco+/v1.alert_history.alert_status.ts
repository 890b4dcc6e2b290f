import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { AlertStatusQuerySchema } from '~/domain/sensor-schemas';
import { listActiveAlerts } from '~/models/sensors.server';
import { requireApiUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';

// GET /v1/alert_history/alert_status?equipment_id=1,2,3: the active (equipment_id, alert_id)
// pairs of those sensors; sensors of stores the viewer may not see give nothing.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const { equipment_id } = parseOrThrow(AlertStatusQuerySchema, searchParamsOf(request));
  return json({ status: await listActiveAlerts(getDb(), viewer, equipment_id) });
}
