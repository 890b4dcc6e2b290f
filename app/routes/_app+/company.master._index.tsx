import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { StatusBar } from '~/components/status-bar';
import { DeleteDialog, FilterSelect, ListFilters, ListSection, MasterTable, Page, useListHref } from '~/components/page-kit';
import { getDb } from '~/db/db.server';
import { CompanyIdSchema, CompanyListQuerySchema, DELETE_FAILED_PARAM, deleteFailureText, MASTER_PAGE_SIZE } from '~/domain/master-schemas';
import { ja } from '~/domain/texts/ja';
import { appUrl, masterUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { afterDelete } from '~/http/master-forms.server';
import { listCompanies } from '~/models/lookups.server';
import { getCompany, listCompanyPage } from '~/models/masters.server';
import { deleteCompany } from '~/services/masters.server';

export const meta: MetaFunction = () => [{ title: '会社マスタ | On-Reco' }];

// The company master (001 §2): company ID and name, name search on Enter, a company filter, 20 per
// page, delete behind the dialog; システム管理, administrators only.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const params = new URL(request.url).searchParams;
  const parsed = CompanyListQuerySchema.safeParse({ ...Object.fromEntries(params), page_count: MASTER_PAGE_SIZE });
  const query = parsed.success ? parsed.data : CompanyListQuerySchema.parse({});
  const db = getDb();
  const deleting = CompanyIdSchema.safeParse({ company_id: params.get('delete') ?? '' });
  const [page, choices, target] = await Promise.all([listCompanyPage(db, query), listCompanies(db, viewer), deleting.success ? getCompany(db, deleting.data.company_id) : null]);
  return json({
    query: { page_no: query.page_no, company_id: query.company_id ?? '', company_name: query.company_name ?? '' },
    page,
    choices,
    target,
    failure: deleteFailureText(params.get(DELETE_FAILED_PARAM)),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const parsed = CompanyIdSchema.safeParse(Object.fromEntries(await request.formData()));
  const result = parsed.success ? await deleteCompany(getDb(), viewer, parsed.data.company_id, new Date()) : null;
  return afterDelete(appUrl.companyMaster, result);
}

export default function CompanyMasterPage() {
  const { query, page, choices, target, failure } = useLoaderData<typeof loader>();
  const listHref = useListHref(appUrl.companyMaster);
  return (
    <Page title="会社マスタ">
      <StatusBar tone="error" message={failure} />
      <ListFilters
        search={{ name: 'company_name', value: query.company_name, placeholder: '会社名で検索', label: '会社名検索' }}
        filtersOpen={query.company_id !== ''}
        filters={<FilterSelect name="company_id" label="会社" value={query.company_id} options={choices.map((company) => ({ value: company.company_id, label: company.company_name }))} />}
        add={{ to: masterUrl.companyCreate, label: '新規追加' }}
      />
      <ListSection label="会社一覧" total={page.all_count} page={query.page_no} pageSize={MASTER_PAGE_SIZE} message={page.rows.length === 0 ? ja.noSearchResults : null}>
        <MasterTable
          label="会社"
          columns={['会社ID', '会社名']}
          rows={page.rows.map((company) => ({
            key: company.company_id,
            name: company.company_name,
            cells: [company.company_id, company.company_name],
            editTo: masterUrl.companyEdit(company.company_id),
            deleteTo: listHref({ delete: company.company_id }),
          }))}
        />
      </ListSection>
      {target && (
        <DeleteDialog title="データを削除しますか？" message={`${target.company_id} ${target.company_name}`} cancelHref={listHref({ delete: null })} fields={{ company_id: target.company_id }} />
      )}
    </Page>
  );
}
