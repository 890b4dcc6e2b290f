import {
  AlertScheduleDeleteAnswerSchema,
  AlertScheduleDeleteSchema,
  AlertScheduleListAnswerSchema,
  AlertScheduleListQuerySchema,
  AlertScheduleSaveAnswerSchema,
  AlertScheduleSaveSchema,
} from '../alert-stop-editor';
import { body, defineCall, jsonAnswer, query } from './call';

// Alert-stop schedules (001 §3 "Alert-stop schedule", §4 save rules, §7): the list, the save
// and the delete, for whoever holds 設定 (storeSettings) on a store they see.

const storeSettings = { kind: 'user', permission: 'storeSettings', store: 'store_id' } as const;

export const listAlertSchedules = defineCall('listAlertSchedules', 'GET /on-reco/v1/alert_schedule', {
  summary: 'The store\'s alert-stop schedules in force on at least one day from start_date to end_date',
  description: 'start_date and end_date are YYYYMMDD (Japan), at most 366 days apart. The answer also carries the store name and its sensors (not removed), which the editor needs.',
  access: storeSettings,
  input: query(AlertScheduleListQuerySchema),
  answer: jsonAnswer(AlertScheduleListAnswerSchema, 'store_name, sensors and the schedules with their times (HH:mm, end 24:00 at the end of the day).'),
});

export const saveAlertSchedule = defineCall('saveAlertSchedule', 'POST /on-reco/v1/alert_schedule', {
  summary: 'Create (schedule_id null) or update an alert-stop schedule',
  description:
    'The JSON body of 001 §3. Saved by the rules of 001 §4: periodic is weekly; sequential weekly spans Sunday–Saturday of the start date; daily ends on its start; an empty end is null; weekday flags only for weekly terms; a store target keeps its first non-empty list of ranges; ranges are merged on the 30-minute grid (end 00:00 or 24:00 is the end of the day). Takes effect from the next reading.',
  access: storeSettings,
  input: body(AlertScheduleSaveSchema, { maxBytes: 256 * 1024 }),
  answer: jsonAnswer(AlertScheduleSaveAnswerSchema, '201 with the new schedule id when created, 200 when updated.', [201, 200]),
  errors: [
    { status: 400, error: 'invalid_request', when: 'the store has no sensors (store_id), or a sensor in times is not of the store (times.N.equipment_id)' },
    { status: 404, error: 'not_found', when: 'schedule_id is not a schedule of the store' },
  ],
});

export const deleteAlertSchedule = defineCall('deleteAlertSchedule', 'DELETE /on-reco/v1/alert_schedule', {
  summary: 'Delete an alert-stop schedule',
  description: 'store_id and schedule_id in the query or in the body (JSON or a form).',
  access: storeSettings,
  input: body(AlertScheduleDeleteSchema),
  answer: jsonAnswer(AlertScheduleDeleteAnswerSchema, 'The deleted schedule.'),
  errors: [{ status: 404, error: 'not_found', when: 'schedule_id is not a schedule of the store' }],
});
