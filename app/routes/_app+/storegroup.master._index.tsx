import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { StatusBar } from '~/components/status-bar';
import { DeleteDialog, FilterSelect, ListFilters, ListSection, MasterTable, Page, useListHref } from '~/components/page-kit';
import { getDb } from '~/db/db.server';
import { DELETE_FAILED_PARAM, deleteFailureText, MASTER_PAGE_SIZE, StoregroupIdSchema, StoregroupListQuerySchema } from '~/domain/master-schemas';
import { ja } from '~/domain/texts/ja';
import { appUrl, masterUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { afterDelete } from '~/http/master-forms.server';
import { listCompanies, listStoregroups } from '~/models/lookups.server';
import { getStoregroup, listStoregroupPage } from '~/models/masters.server';
import { deleteStoregroup } from '~/services/masters.server';

export const meta: MetaFunction = () => [{ title: '店舗グループマスタ | On-Reco' }];

// The store group master (001 §2): company name, store group ID and name; group name search on
// Enter, company and store group filters, 20 per page, delete behind the dialog; システム管理.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const params = new URL(request.url).searchParams;
  const parsed = StoregroupListQuerySchema.safeParse({ ...Object.fromEntries(params), page_count: MASTER_PAGE_SIZE });
  const query = parsed.success ? parsed.data : StoregroupListQuerySchema.parse({});
  const db = getDb();
  const deleting = StoregroupIdSchema.safeParse({ storegroup_id: params.get('delete') ?? '' });
  const [page, companies, storegroups, target] = await Promise.all([
    listStoregroupPage(db, query),
    listCompanies(db, viewer),
    // The store group select follows the chosen company.
    listStoregroups(db, viewer, query.company_id),
    deleting.success ? getStoregroup(db, deleting.data.storegroup_id) : null,
  ]);
  return json({
    query: { page_no: query.page_no, company_id: query.company_id ?? '', storegroup_id: query.storegroup_id ?? '', storegroup_name: query.storegroup_name ?? '' },
    page,
    companies,
    storegroups: storegroups.map((group) => ({ storegroup_id: group.storegroup_id, storegroup_name: group.storegroup_name })),
    target,
    failure: deleteFailureText(params.get(DELETE_FAILED_PARAM)),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const parsed = StoregroupIdSchema.safeParse(Object.fromEntries(await request.formData()));
  const result = parsed.success ? await deleteStoregroup(getDb(), viewer, parsed.data.storegroup_id, new Date()) : null;
  return afterDelete(appUrl.storegroupMaster, result);
}

export default function StoregroupMasterPage() {
  const { query, page, companies, storegroups, target, failure } = useLoaderData<typeof loader>();
  const listHref = useListHref(appUrl.storegroupMaster);
  return (
    <Page title="店舗グループマスタ">
      <StatusBar tone="error" message={failure} />
      <ListFilters
        search={{ name: 'storegroup_name', value: query.storegroup_name, placeholder: '店舗グループ名で検索', label: '店舗グループ名検索' }}
        filtersOpen={query.company_id !== '' || query.storegroup_id !== ''}
        filters={
          <>
            <FilterSelect key={`c-${query.company_id}`} name="company_id" label="会社" value={query.company_id} options={companies.map((company) => ({ value: company.company_id, label: company.company_name }))} />
            <FilterSelect key={`g-${query.company_id}-${query.storegroup_id}`} name="storegroup_id" label="店舗グループ" value={query.storegroup_id} options={storegroups.map((group) => ({ value: group.storegroup_id, label: group.storegroup_name }))} />
          </>
        }
        add={{ to: masterUrl.storegroupCreate, label: '新規追加' }}
      />
      <ListSection label="店舗グループ一覧" total={page.all_count} page={query.page_no} pageSize={MASTER_PAGE_SIZE} message={page.rows.length === 0 ? ja.noSearchResults : null}>
        <MasterTable
          label="店舗グループ"
          columns={['会社名', '店舗グループID', '店舗グループ名']}
          rows={page.rows.map((group) => ({
            key: group.storegroup_id,
            name: group.storegroup_name,
            cells: [group.company_name, group.storegroup_id, group.storegroup_name],
            editTo: masterUrl.storegroupEdit(group.storegroup_id),
            deleteTo: listHref({ delete: group.storegroup_id }),
          }))}
        />
      </ListSection>
      {target && (
        <DeleteDialog title="データを削除しますか？" message={`${target.storegroup_id} ${target.storegroup_name}`} cancelHref={listHref({ delete: null })} fields={{ storegroup_id: target.storegroup_id }} />
      )}
    </Page>
  );
}
