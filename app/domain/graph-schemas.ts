// Inputs of the temperature graphs' calls (000 §7): the measurement CSV, the page's CSV link and
// the comment registration. One zod schema per input, used by the API routes and the page.
import { z } from 'zod';
import { COMMENT_MAX, GRAPH_TEXTS, GRAPH_UNITS, MEASUREMENT_CSV_MAX_DAYS, MEASUREMENT_CSV_MAX_SENSORS, parseGraphDate } from './graph';
import { compactDateTime } from './sensor-schemas';
import { bodyNumber, dbText, INT4_MAX } from './input-schemas';

const DAY_MS = 24 * 60 * 60 * 1000;



/** "1,2,3": positive whole numbers, duplicates dropped, at most 50; one reason for the whole field. */
const equipmentIdList = z.string({ required_error: 'equipment_id is required' }).transform((value, ctx) => {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d{1,10}$/.test(part) || Number(part) < 1 || Number(part) > INT4_MAX)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'equipment_id is a comma list of positive whole numbers' });
    return z.NEVER;
  }
  const ids = [...new Set(parts.map(Number))];
  if (ids.length > MEASUREMENT_CSV_MAX_SENSORS) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `at most ${MEASUREMENT_CSV_MAX_SENSORS} equipment ids` });
    return z.NEVER;
  }
  return ids;
});

/** GET /v1/equipments/measurement/csv: equipment_id (comma list), since, until (YYYYMMDDHHmmss, inclusive, at most 31 days). */
export const MeasurementCsvQuerySchema = z
  .object({ equipment_id: equipmentIdList, since: compactDateTime('since'), until: compactDateTime('until') })
  .superRefine((query, ctx) => {
    // Runs even when a field failed: compare only two parsed dates.
    if (!(query.since instanceof Date) || !(query.until instanceof Date)) return;
    if (query.since > query.until) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['until'], message: 'until must not be before since' });
    else if (query.until.getTime() - query.since.getTime() > MEASUREMENT_CSV_MAX_DAYS * DAY_MS) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['since'], message: `the range from since to until is at most ${MEASUREMENT_CSV_MAX_DAYS} days` });
    }
  });
export type MeasurementCsvQuery = z.infer<typeof MeasurementCsvQuerySchema>;

/** The page's CSV link: the panel's sensors and period. */
export const GraphCsvQuerySchema = z.object({
  equipment_id: equipmentIdList,
  unit: z.enum(GRAPH_UNITS, { errorMap: () => ({ message: 'unit is day, week or month' }) }).default('day'),
  start_date: z
    .string({ required_error: 'start_date is required' })
    .refine((value) => parseGraphDate(value) !== null, 'start_date is YYYYMMDD')
    .transform((value) => parseGraphDate(value)!),
});

/**
 * The comment registration (000 §5, §7 "path not shown"; ours: POST /v1/equipments/measurement/comment).
 * start_date names a reading (the nearest within 5 minutes); an empty comment removes it.
 */
export const MeasurementCommentSchema = z.object({
  equipment_id: bodyNumber(
    z.coerce
      .number({ required_error: 'equipment_id is required', invalid_type_error: 'equipment_id must be a number' })
      .int('equipment_id must be a whole number')
      .positive('equipment_id must be positive')
      .max(INT4_MAX, 'equipment_id is too large'),
  ),
  start_date: compactDateTime('start_date'),
  comment: dbText({ required_error: 'comment is required', invalid_type_error: 'comment must be text' })
    .transform((value) => value.trim())
    .pipe(z.string().max(COMMENT_MAX, GRAPH_TEXTS.commentTooLong)),
});
export type MeasurementCommentInput = z.infer<typeof MeasurementCommentSchema>;

/** POST /v1/equipments/measurement/comment: the reading's own start_date; comment null when it was removed. */
export const MeasurementCommentAnswerSchema = z.strictObject({
  equipment_id: z.number().int(),
  start_date: z.string().regex(/^\d{14}$/),
  comment: z.string().nullable(),
});
