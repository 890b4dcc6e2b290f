import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { StatusBar } from '~/components/status-bar';
import { DeleteDialog, FilterSelect, ListFilters, ListSection, MasterTable, Page, useListHref } from '~/components/page-kit';
import { getDb } from '~/db/db.server';
import { DELETE_FAILED_PARAM, deleteFailureText, GROUP_SEARCH_PARAM, MASTER_PAGE_SIZE, UsergroupIdSchema, UsergroupListQuerySchema } from '~/domain/master-schemas';
import { ja } from '~/domain/texts/ja';
import { appUrl, masterUrl, resourceUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { afterDelete } from '~/http/master-forms.server';
import { getUsergroup, listUsergroupPage } from '~/models/masters.server';
import { findAssignableGroups } from '~/models/user-master.server';
import { deleteUsergroup } from '~/services/masters.server';

export const meta: MetaFunction = () => [{ title: 'ユーザーグループマスタ | On-Reco' }];

// The user group master (001 §2): name search on Enter, a user group filter, 20 per page, delete
// behind the dialog; システム管理, administrators only.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const params = new URL(request.url).searchParams;
  const parsed = UsergroupListQuerySchema.safeParse({ ...Object.fromEntries(params), page_count: MASTER_PAGE_SIZE });
  const query = parsed.success ? parsed.data : UsergroupListQuerySchema.parse({});
  const db = getDb();
  const deleting = UsergroupIdSchema.safeParse({ usergroup_id: params.get('delete') ?? '' });
  const groupSearch = params.get(GROUP_SEARCH_PARAM) ?? '';
  const [page, choices, target] = await Promise.all([
    listUsergroupPage(db, query),
    // The filter's chosen group (and a name search's matches); the rest load when it is opened.
    findAssignableGroups(db, viewer, { selectedId: query.usergroup_id, search: groupSearch }),
    deleting.success ? getUsergroup(db, deleting.data.usergroup_id) : null,
  ]);
  return json({
    query: { page_no: query.page_no, usergroup_id: query.usergroup_id ?? null, usergroup_name: query.usergroup_name ?? '', groupSearch },
    page,
    choices,
    target,
    failure: deleteFailureText(params.get(DELETE_FAILED_PARAM)),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const parsed = UsergroupIdSchema.safeParse(Object.fromEntries(await request.formData()));
  const result = parsed.success ? await deleteUsergroup(getDb(), viewer, parsed.data.usergroup_id, new Date()) : null;
  return afterDelete(appUrl.usergroupMaster, result);
}

export default function UsergroupMasterPage() {
  const { query, page, choices, target, failure } = useLoaderData<typeof loader>();
  const listHref = useListHref(appUrl.usergroupMaster);
  return (
    <Page title="ユーザーグループマスタ">
      <StatusBar tone="error" message={failure} />
      <ListFilters
        search={{ name: 'usergroup_name', value: query.usergroup_name, placeholder: 'ユーザーグループ名で検索', label: 'ユーザーグループ名検索' }}
        filtersOpen={query.usergroup_id !== null || query.groupSearch !== ''}
        filters={
          <FilterSelect
            name="usergroup_id"
            label="ユーザーグループ"
            value={query.usergroup_id === null ? '' : String(query.usergroup_id)}
            options={choices.map((group) => ({ value: String(group.usergroup_id), label: group.usergroup_name }))}
            source={resourceUrl.usergroupChoices}
            search={{ name: GROUP_SEARCH_PARAM, value: query.groupSearch, label: 'ユーザーグループ名で候補を検索' }}
          />
        }
        add={{ to: masterUrl.usergroupCreate, label: '新規追加' }}
      />
      <ListSection label="ユーザーグループ一覧" total={page.all_count} page={query.page_no} pageSize={MASTER_PAGE_SIZE} message={page.rows.length === 0 ? ja.noSearchResults : null}>
        <MasterTable
          label="ユーザーグループ"
          columns={['ユーザーグループID', 'ユーザーグループ名']}
          rows={page.rows.map((group) => ({
            key: String(group.usergroup_id),
            name: group.usergroup_name,
            cells: [group.usergroup_id, group.usergroup_name],
            editTo: masterUrl.usergroupEdit(group.usergroup_id),
            deleteTo: listHref({ delete: String(group.usergroup_id) }),
          }))}
        />
      </ListSection>
      {target && (
        <DeleteDialog
          title="データを削除しますか？"
          message={`${target.usergroup_id} ${target.usergroup_name}`}
          cancelHref={listHref({ delete: null })}
          fields={{ usergroup_id: String(target.usergroup_id) }}
        />
      )}
    </Page>
  );
}
