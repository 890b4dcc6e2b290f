import { z } from 'zod';
import { alertHistoryQuerySchema, AlertStopSchema } from '../alert-history';
import { AlertStatusAnswerSchema, AlertStatusQuerySchema } from '../sensor-schemas';
import { body, defineCall, fileAnswer, jsonAnswer, query } from './call';

// The alert history (000 §7, docs/decisions/040-alert-history.md) and the active alerts.

const stamp = z.string().regex(/^\d{17}$/, 'YYYYMMDDHHmmssSSS');

export const AlertHistoryPageAnswerSchema = z.strictObject({
  all_count: z.number().int(),
  alerts: z.array(
    z.strictObject({
      alert_id: z.string(),
      equipment_id: z.number().int().nullable(),
      alert_data1: z.string().nullable(),
      lower_limit: z.number().nullable(),
      upper_limit: z.number().nullable(),
      start_date: stamp,
      alert_history_id: z.number().int(),
      store_id: z.string(),
      equipment_name: z.string().nullable(),
      recovered_date: stamp.nullable(),
      stopped: z.union([z.literal(0), z.literal(1)]),
      stopped_date: stamp.nullable(),
      stopped_by_name: z.string().nullable(),
      stop_comment: z.string().nullable(),
      stoppable: z.union([z.literal(0), z.literal(1)]),
      simulated_temperature: z.number().nullable().describe('A temperature alert\'s simulated (damped) product temperature, the value checked against the limits; alert_data1 stays the reading. Null for other alerts (decision 278).'),
      acknowledged_date: stamp.nullable().describe('When someone acknowledged the alert with a corrective action (decision 237); null while nobody did.'),
      acknowledged_by_name: z.string().nullable(),
      corrective_action: z.string().nullable(),
      acknowledge_note: z.string().nullable(),
    }),
  ),
});

export const AlertStopAnswerSchema = z.strictObject({
  alert_history_id: z.number().int(),
  store_id: z.string(),
  equipment_id: z.number().int(),
  alert_id: z.string(),
  stopped_date: stamp,
  stopped_by_name: z.string().nullable(),
  stop_comment: z.string().nullable(),
  already_stopped: z.union([z.literal(0), z.literal(1)]),
});

const noSuchStoreOrSensor = { status: 404, error: 'not_found', when: 'the store or a sensor does not exist or is not the user\'s' } as const;

export const listAlertHistory = defineCall('listAlertHistory', 'GET /on-reco/v1/alert_history', {
  summary: 'One page of the alert history of sensors or of a store, newest first',
  input: query(alertHistoryQuerySchema),
  answer: jsonAnswer(AlertHistoryPageAnswerSchema, 'all_count and the page.'),
  errors: [noSuchStoreOrSensor],
  references: { store_id: 'store', equipment_id: 'equipment' },
});

export const alertHistoryCsv = defineCall('alertHistoryCsv', 'GET /on-reco/v1/alert_history/csv', {
  summary: 'The alert history with the list\'s filters as CSV (paging ignored)',
  input: query(alertHistoryQuerySchema),
  answer: fileAnswer(['text/csv'], 'alert_history.csv, UTF-8 with a BOM, newest first.'),
  errors: [noSuchStoreOrSensor],
  references: { store_id: 'store', equipment_id: 'equipment' },
});

export const stopAlert = defineCall('stopAlert', 'POST /on-reco/v1/alert_history', {
  summary: 'Stop a sensor\'s active alert (no more re-notifications)',
  description: 'Any user who can see the store may stop; stopping a stopped alert changes nothing (200, already_stopped 1).',
  input: body(AlertStopSchema),
  answer: jsonAnswer(AlertStopAnswerSchema, 'The history row of the stopped alert.'),
  errors: [{ status: 404, error: 'not_found', when: 'no such active alert on a sensor the user may see' }],
  references: { equipment_id: 'equipment' },
});

export const listActiveAlerts = defineCall('listActiveAlerts', 'GET /on-reco/v1/alert_history/alert_status', {
  summary: 'The active (equipment_id, alert_id) pairs of sensors',
  description: 'Sensors of stores the user may not see give nothing.',
  input: query(AlertStatusQuerySchema),
  answer: jsonAnswer(AlertStatusAnswerSchema, 'The pairs.'),
  references: { equipment_id: 'equipment' },
});
