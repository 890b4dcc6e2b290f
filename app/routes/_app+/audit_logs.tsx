import { type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { AuditFilters, AuditTable, ChainBanner } from '~/components/audit/audit-log';
import { ListSection, Page } from '~/components/page-kit';
import { PageError } from '~/components/page-error';
import { getDb } from '~/db/db.server';
import { AUDIT_MESSAGES, AUDIT_PAGE_SIZE, AuditQuerySchema, type AuditBreakReason } from '~/domain/audit';
import { parseCompact } from '~/domain/japan-time';
import { requireRole } from '~/http/access.server';
import { fieldErrors } from '~/http/api.server';
import { listAuditFilterChoices, listAuditRows, auditChainVerification } from '~/models/audit.server';

export const meta: MetaFunction = () => [{ title: '監査ログ | On-Reco' }];

const seconds = (compact: string) => {
  const at = parseCompact(compact);
  return at ? `${compact.slice(0, 4)}/${compact.slice(4, 6)}/${compact.slice(6, 8)} ${compact.slice(8, 10)}:${compact.slice(10, 12)}:${compact.slice(12, 14)}` : compact;
};

// /audit_logs (administrators, システム管理 › 監査ログ): the audit trail, 20 rows a page, newest
// first, filtered by period, user, store and kind, with the chain's verification on top and the
// broken rows marked (issue 13 item 6, decision 134).
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'auditLog');
  const db = getDb();
  const search = Object.fromEntries(new URL(request.url).searchParams);
  const values = { from: search.from ?? '', to: search.to ?? '', user_id: search.user_id ?? '', store_id: search.store_id ?? '', kind: search.kind ?? '' };
  const parsed = AuditQuerySchema.safeParse({ ...search, page_count: AUDIT_PAGE_SIZE });
  const [choices, verification] = await Promise.all([listAuditFilterChoices(db, viewer), auditChainVerification(db)]);
  if (!parsed.success) return json({ values, errors: fieldErrors(parsed.error), choices, verification, pageNo: 1, list: null });
  const query = parsed.data;
  const page = await listAuditRows(db, viewer, query);
  return json({
    values: { ...values, from: query.from ?? '', to: query.to ?? '' },
    errors: {} as Record<string, string>,
    choices,
    verification,
    pageNo: query.page_no,
    list: { allCount: page.allCount, rows: page.rows.map((row) => ({ ...row, when: seconds(row.at) })) },
  });
}

export default function AuditLogPage() {
  const data = useLoaderData<typeof loader>();
  const broken = new Map<number, AuditBreakReason>(data.verification.broken.filter((row) => row.reason !== 'rows_deleted_after').map((row) => [row.audit_id, row.reason]));
  for (const row of data.verification.broken) if (!broken.has(row.audit_id)) broken.set(row.audit_id, row.reason);
  return (
    <Page title="監査ログ">
      <ChainBanner verification={data.verification} />
      <AuditFilters values={data.values} errors={data.errors} users={data.choices.users} stores={data.choices.stores} />
      <ListSection
        label="監査ログ一覧"
        total={data.list ? data.list.allCount : null}
        page={data.pageNo}
        pageSize={AUDIT_PAGE_SIZE}
        message={!data.list ? AUDIT_MESSAGES.badDate : data.list.rows.length === 0 ? AUDIT_MESSAGES.noRows : null}
      >
        {data.list && <AuditTable rows={data.list.rows} broken={broken} />}
      </ListSection>
    </Page>
  );
}

export function ErrorBoundary() {
  return <PageError title="監査ログ" />;
}
