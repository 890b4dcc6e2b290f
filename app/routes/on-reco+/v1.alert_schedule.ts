import { json } from '@remix-run/node';
import { deleteAlertSchedule as deleteCall, listAlertSchedules as listCall, saveAlertSchedule as saveCall } from '~/domain/api/alert-schedules';
import { apiError } from '~/http/access.server';
import { invalidRequest } from '~/http/api.server';
import { apiAction, apiActions, apiLoader, queryOrBody } from '~/http/api-route.server';
import { type ScheduleFailure, deleteAlertSchedule, listAlertSchedules, saveAlertSchedule } from '~/services/alert-schedules.server';

// /v1/alert_schedule (001 §7): GET the schedules of a date range, POST one schedule (create or
// update), DELETE one. storeSettings on a store the user sees (404 otherwise).

const failure = (result: ScheduleFailure, storeId: string) =>
  result.reason === 'invalid' ? invalidRequest(result.fields) : apiError(404, 'not_found', `No such alert-stop schedule in store ${storeId}.`);

export const loader = apiLoader(listCall, async ({ viewer, input, db, now }) => {
  const list = await listAlertSchedules(db, viewer, input.store_id, input.start_date, input.end_date, now);
  if (!list) throw apiError(404, 'not_found', `Store ${input.store_id} was not found.`);
  return list;
});

export const action = apiActions(
  apiAction(saveCall, async ({ viewer, input, db, now }) => {
    const result = await saveAlertSchedule(db, viewer, input, now);
    if (!result.ok) return failure(result, input.store_id);
    return json({ store_id: input.store_id, schedule_id: result.scheduleId }, { status: result.created ? 201 : 200 });
  }),
  apiAction(deleteCall, async ({ viewer, input, db, now }) => {
    const result = await deleteAlertSchedule(db, viewer, input.store_id, input.schedule_id, now);
    if (!result.ok) return failure(result, input.store_id);
    return { store_id: input.store_id, schedule_id: input.schedule_id };
  }, { readBody: queryOrBody }),
);
