import {
  RegularReportDeleteSchema,
  RegularReportsAnswerSchema,
  RegularReportsQuerySchema,
  ReportDownloadQuerySchema,
  ReportHistoryAnswerSchema,
  ReportHistoryQuerySchema,
  ReportSaveAnswerSchema,
  ReportSaveSchema,
} from '../report-form';
import { body, defineCall, fileAnswer, jsonAnswer, query } from './call';
import { z } from 'zod';

// Reports (001 §2, §3, §7): the history and its files, the regular settings, and the report
// create/edit payload. Anyone who may see the store (DESIGN.md role table: watch reports).

const onStore = { kind: 'user', store: 'store_id' } as const;

export const listReportHistory = defineCall('listReportHistory', 'GET /on-reco/v1/store_report/history', {
  summary: 'A store\'s report history created between since and until (this month by default), newest first, 10 per page',
  description: 'page_no (ours, from 1) pages by 10 as the history tab does. state is pending (作成中) while the worker makes the file, done, or failed; url is the download call for a done report.',
  access: onStore,
  input: query(ReportHistoryQuerySchema),
  answer: jsonAnswer(ReportHistoryAnswerSchema, 'all_count and the page of history items.'),
  references: { store_id: 'store' },
});

export const downloadReport = defineCall('downloadReport', 'GET /on-reco/v1/store_report/history/download', {
  summary: 'A produced report\'s file (PDF or CSV), streamed, its name in Content-Disposition',
  input: query(ReportDownloadQuerySchema),
  answer: fileAnswer(['application/pdf', 'text/csv'], 'The file; the name is in Content-Disposition (filename*, UTF-8).'),
  errors: [
    { status: 404, error: 'not_found', when: 'no such report in a store the user may see' },
    { status: 409, error: 'invalid_state', when: 'the report is still being made (作成中) or its making failed' },
  ],
});

export const listRegularReports = defineCall('listRegularReports', 'GET /on-reco/v1/store_report', {
  summary: 'A store\'s regular report settings',
  access: onStore,
  input: query(RegularReportsQuerySchema),
  answer: jsonAnswer(RegularReportsAnswerSchema, 'The settings, by setting_no, with create_date and create_user_name.'),
  references: { store_id: 'store' },
});

export const saveReport = defineCall('saveReport', 'POST /on-reco/v1/store_report', {
  summary: 'Create a report (sequential: made by the worker at once) or create or update a regular report setting',
  description:
    'regular_report 0 writes a history row (作成中) that the worker makes within minutes; 1 creates a setting (setting_no null, at most 10 per store) or updates setting_no. Month, week and day periods are derived from start_time; times are fixed at 00:00 and 23:50.',
  access: onStore,
  input: body(ReportSaveSchema, { maxBytes: 64 * 1024 }),
  answer: jsonAnswer(ReportSaveAnswerSchema, '201 when a report or setting was created, 200 when a setting was updated.', [201, 200]),
  errors: [
    { status: 404, error: 'not_found', when: 'the store, or the setting_no of the store, does not exist or is not the user\'s' },
    { status: 409, error: 'invalid_state', when: 'the store is removed (撤去): its reports are kept but no new one is made' },
  ],
  references: { store_id: 'store', equipment_ids: 'equipment' },
});

export const deleteRegularReport = defineCall('deleteRegularReport', 'DELETE /on-reco/v1/store_report', {
  summary: 'Delete a regular report setting (the reports it produced stay in the history)',
  access: onStore,
  input: body(RegularReportDeleteSchema),
  answer: jsonAnswer(z.strictObject({ store_id: z.string(), setting_no: z.number().int() }), 'The deleted setting\'s key.'),
  errors: [
    { status: 404, error: 'not_found', when: 'no such setting in a store the user may see' },
    { status: 409, error: 'invalid_state', when: 'the store is removed (撤去)' },
  ],
  references: { store_id: 'store' },
});
