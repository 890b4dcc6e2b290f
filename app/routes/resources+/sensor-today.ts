import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { SensorTodayQuerySchema } from '~/domain/sensor-schemas';
import { getSensorToday } from '~/models/sensors.server';
import { listStoppableAlerts } from '~/models/alert-history.server';
import { type StoppableAlertView, stoppableAlertViews } from '~/domain/alert-history';
import type { SensorPopupData } from '~/domain/sensor-view';
import { requireUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';

// The sensor popup's "today" (fetched when the popup opens, so the views' 60-second refresh
// stays one query): the alerts that started today, the day's readings by 10 minutes, and the
// alerts that may be stopped now (the pop-up's 警報を停止, issue 33).
// The model scopes the sensor to the store and the store to the viewer: 404 JSON otherwise.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const query = parseOrThrow(SensorTodayQuerySchema, searchParamsOf(request));
  const today = await getSensorToday(getDb(), viewer, { storeId: query.store_id, equipmentId: query.equipment_id, now: new Date() });
  if (!today) throw json({ error: 'not_found', error_description: 'No such sensor in this store.' }, { status: 404 });
  const openAlerts: StoppableAlertView[] = stoppableAlertViews(await listStoppableAlerts(getDb(), viewer, query.store_id, [query.equipment_id]), query.store_id, viewer.language);
  const data: SensorPopupData = { ...today, open_alerts: openAlerts };
  // Not cached: a stop link must disappear once the alert is stopped or recovered.
  return json(data, { headers: { 'Cache-Control': 'private, no-cache' } });
}
