import { listAudit } from '~/domain/api/audit';
import { apiLoader, apiNotAllowed } from '~/http/api-route.server';
import { listAuditRows, auditChainVerification } from '~/models/audit.server';

// GET /v1/audit (administrators): one page of the audit trail, with the chain's verification.
export const loader = apiLoader(listAudit, async ({ viewer, input, db }) => {
  const [page, verification] = await Promise.all([listAuditRows(db, viewer, input), auditChainVerification(db)]);
  return { all_count: page.allCount, page_no: input.page_no, page_count: input.page_count, rows: page.rows, verification };
});

export const action = apiNotAllowed(listAudit.path);
