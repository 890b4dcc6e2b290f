import { z } from 'zod';
import { HaccpRecordQuerySchema, HaccpSignSchema } from '../haccp';
import { body, defineCall, jsonAnswer, query } from './call';

// The HACCP daily record (issue 14 item 6, docs/decisions/146): a store day sensor by sensor and
// its sign-off. Everyone who may see the store may read and sign (DESIGN.md: watch and stop level).

const stamp = z.string().regex(/^\d{14}$/, 'YYYYMMDDHHmmss');
const ownStore = { kind: 'user', store: 'store_id' } as const;

const SignoffSchema = z.strictObject({ user_name: z.string(), signed_date: stamp, note: z.string().nullable(), issue_count: z.number().int() });

export const HaccpRecordAnswerSchema = z.strictObject({
  store_id: z.string(),
  store_name: z.string(),
  date: z.string(),
  issue_count: z.number().int().describe('alerts and excursions of the day'),
  needs_signoff: z.union([z.literal(0), z.literal(1)]).describe('1 when never signed or when more issues appeared since the last sign-off'),
  signoffs: z.array(SignoffSchema),
  sensors: z.array(
    z.strictObject({
      equipment_id: z.number().int(),
      equipment_name: z.string(),
      serial_no: z.string(),
      result: z.enum(['pass', 'fail', 'no_data']),
      lower_limit: z.number().nullable(),
      upper_limit: z.number().nullable(),
      min: z.number().nullable(),
      max: z.number().nullable(),
      readings: z.number().int(),
      excursions: z.array(
        z.strictObject({
          start_date: stamp,
          end_date: stamp,
          kind: z.enum(['high', 'low']),
          peak: z.number(),
          limit: z.number(),
          actions: z.array(z.strictObject({ date: stamp, comment: z.string(), user_name: z.string().nullable() })),
        }),
      ),
      alerts: z.array(
        z.strictObject({
          alert_id: z.string(),
          label: z.string(),
          start_date: stamp,
          recovered_date: stamp.nullable(),
          stopped_date: stamp.nullable(),
          stopped_by_name: z.string().nullable(),
          stop_comment: z.string().nullable(),
          acknowledged_date: stamp.nullable(),
          acknowledged_by_name: z.string().nullable(),
          corrective_action: z.string().nullable(),
          acknowledge_note: z.string().nullable(),
        }),
      ),
      comments: z.array(z.strictObject({ date: stamp, comment: z.string(), user_name: z.string().nullable() })),
    }),
  ),
});

export const HaccpSignAnswerSchema = z.strictObject({
  store_id: z.string(),
  date: z.string(),
  user_name: z.string(),
  signed_date: stamp,
  note: z.string().nullable(),
  issue_count: z.number().int(),
  already_signed: z.union([z.literal(0), z.literal(1)]),
});

export const getHaccpRecord = defineCall('getHaccpRecord', 'GET /on-reco/v1/haccp_record', {
  summary: 'The HACCP daily record of a store day: each sensor pass / fail, its excursions and corrective actions, and the sign-offs',
  access: ownStore,
  input: query(HaccpRecordQuerySchema),
  answer: jsonAnswer(HaccpRecordAnswerSchema, 'The day, sensor by sensor.'),
});

export const signHaccpRecord = defineCall('signHaccpRecord', 'POST /on-reco/v1/haccp_record', {
  summary: 'Sign a store day\'s HACCP record as the calling user (written to the audit trail)',
  description: 'A day already signed with no new alert or excursion since is not signed twice (200, already_signed 1). A future day is 400 (date).',
  access: ownStore,
  input: body(HaccpSignSchema),
  answer: jsonAnswer(HaccpSignAnswerSchema, 'The sign-off.'),
});
