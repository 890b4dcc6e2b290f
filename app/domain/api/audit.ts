import { AuditAnswerSchema, AuditQuerySchema } from '../audit';
import { defineCall, jsonAnswer, query } from './call';

// The audit trail (issue 13 item 6, decisions 130–134): administrators only.

export const listAudit = defineCall('listAudit', 'GET /on-reco/v1/audit', {
  summary: 'The audit trail: one page of rows (newest first) with before / after, and the hash chain\'s verification',
  description:
    'Filters: the period from / to (YYYYMMDD, Japan time, both days inclusive), user_id, store_id, kind (a target_type, or an action prefix: gateway matches gateway.exchange). verification walks the whole chain: ok, the rows checked, and the first broken rows with the reason (content_changed, rows_deleted_before, row_inserted, rows_deleted_after).',
  access: { kind: 'user', permission: 'auditLog' },
  input: query(AuditQuerySchema),
  answer: jsonAnswer(AuditAnswerSchema, 'all_count, the page and the verification.'),
});
