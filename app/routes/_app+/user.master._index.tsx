import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { Link, useLoaderData, useSearchParams } from '@remix-run/react';
import { DeleteDialog, FilterSelect, FilterText, ListFilters, ListSection, Page, useListHref, useStackedTable } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { getDb } from '~/db/db.server';
import { ja } from '~/domain/texts/ja';
import { DELETE_FAILED_PARAM, GROUP_SEARCH_PARAM } from '~/domain/master-schemas';
import { appUrl, resourceUrl, withQuery } from '~/domain/urls';
import { ALERT_FILTER_LABELS, ALERT_FILTERS, alertFilterText } from '~/domain/alert-filter';
import { LANGUAGE_LABELS, USER_MESSAGES, UserDeleteSchema, UserListQuerySchema } from '~/domain/user-master';
import { requireRole } from '~/http/access.server';
import { findAssignableGroups, listUsers } from '~/models/user-master.server';
import { deleteUser } from '~/services/user-master.server';

// /user/master (001 §2 User master): the users the viewer may see, 20 per page, searched by name,
// filtered by mail (Enter), valid, alert, user group and user id; delete with confirm, after which
// the search resets and page 1 loads. Administrators, case and area managers (DESIGN.md, scoped).

export const meta: MetaFunction = () => [{ title: 'ユーザー一覧 | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  const url = new URL(request.url);
  const parsed = UserListQuerySchema.safeParse({ ...Object.fromEntries(url.searchParams), page_count: undefined });
  const query = parsed.success ? parsed.data : UserListQuerySchema.parse({});
  const groupSearch = url.searchParams.get(GROUP_SEARCH_PARAM) ?? '';
  const db = getDb();
  const [list, groups] = await Promise.all([
    listUsers(db, viewer, query),
    // The group filter's chosen group (and a name search's matches); the rest load when it is opened.
    findAssignableGroups(db, viewer, { selectedId: query.usergroup_id, search: groupSearch }),
  ]);
  const deleting = Number(url.searchParams.get('delete')) || null;
  return json({
    ...list,
    page: query.page_no,
    pageSize: query.page_count,
    groups: groups.map((group) => ({ value: String(group.usergroup_id), label: group.usergroup_name })),
    groupSearch,
    deleting: list.users.find((user) => user.user_id === deleting) ?? null,
    deleteFailed: url.searchParams.has(DELETE_FAILED_PARAM),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  const form = Object.fromEntries(await request.formData());
  const parsed = UserDeleteSchema.safeParse(form);
  const result = parsed.success ? await deleteUser(getDb(), viewer, parsed.data.user_id, new Date()) : null;
  // 001 §4, §8: after a delete (or a failed one, with its message) the search resets and page 1 loads.
  return redirect(result?.ok ? appUrl.userMaster : withQuery(appUrl.userMaster, { [DELETE_FAILED_PARAM]: 1 }));
}

const mailsOf = (user: { mailaddress1: string | null; mailaddress2: string | null; mailaddress3: string | null }) =>
  [user.mailaddress1, user.mailaddress2, user.mailaddress3].filter((mail): mail is string => !!mail);

const FILTERS = ['mailaddress', 'valid_flg', 'alert_filter', 'usergroup_id', 'user_id', GROUP_SEARCH_PARAM];

export default function UserMasterPage() {
  const stack = useStackedTable();
  const { all_count, users, page, pageSize, groups, groupSearch, deleting, deleteFailed } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const listHref = useListHref(appUrl.userMaster);
  const value = (name: string) => searchParams.get(name) ?? '';
  return (
    <Page title="ユーザー一覧">
      <StatusBar tone="error" message={deleteFailed ? USER_MESSAGES.deleteFailed : null} />
      <ListFilters
        search={{ name: 'user_name', value: value('user_name'), placeholder: 'ユーザー名検索', label: 'ユーザー名検索' }}
        filtersOpen={FILTERS.some((name) => value(name) !== '')}
        add={{ to: appUrl.userCreate, label: '新規追加' }}
        filters={
          <>
            <FilterText name="mailaddress" label="メールアドレス" value={value('mailaddress')} />
            <FilterSelect name="valid_flg" label="有効" value={value('valid_flg')} options={VALID_OPTIONS} />
            <FilterSelect name="alert_filter" label="警報" value={value('alert_filter')} options={ALERT_OPTIONS} />
            <FilterSelect
              name="usergroup_id"
              label="ユーザーグループ"
              value={value('usergroup_id')}
              options={groups}
              source={resourceUrl.usergroupChoices}
              search={{ name: GROUP_SEARCH_PARAM, value: groupSearch, label: 'ユーザーグループ名で候補を検索' }}
            />
            <FilterText name="user_id" label="ユーザーID" value={value('user_id')} inputMode="numeric" />
          </>
        }
      />
      <ListSection total={all_count} page={page} pageSize={pageSize} message={users.length === 0 ? ja.noSearchResults : null} label="ユーザー一覧">
        <div className="overflow-x-auto">
          <table ref={stack} className="table-stack w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs text-slate-500">
              <tr>
                <th className="px-4 py-2 font-medium">ユーザー名 / ID</th>
                <th className="px-4 py-2 font-medium">電話番号</th>
                <th className="px-4 py-2 font-medium">メールアドレス</th>
                <th className="px-4 py-2 font-medium">言語</th>
                <th className="px-4 py-2 text-center font-medium">有効</th>
                <th className="px-4 py-2 font-medium">警報</th>
                <th className="px-4 py-2 font-medium"><span className="sr-only">編集</span></th>
                <th className="px-4 py-2 font-medium"><span className="sr-only">削除</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {users.map((user) => (
                <tr key={user.user_id} className="align-top">
                  <td className="px-4 py-3">
                    <p className="font-medium text-slate-800">{user.user_name}</p>
                    <p className="text-xs text-slate-500">{user.login_id}</p>
                  </td>
                  <td className="px-4 py-3 text-slate-600">{user.tel_no ?? ''}</td>
                  <td className="px-4 py-3 text-slate-600">
                    {mailsOf(user).map((mail) => (
                      <p key={mail} className="break-all">{mail}</p>
                    ))}
                  </td>
                  <td className="px-4 py-3 text-slate-600">{LANGUAGE_LABELS[user.language]}</td>
                  <td className="px-4 py-3 text-center" aria-label={user.valid_flg === 1 ? '有効' : '無効'}>{user.valid_flg === 1 ? '✓' : '–'}</td>
                  <td className="px-4 py-3 text-slate-600">{alertFilterText(user.alert_filter)}</td>
                  <td className="px-4 py-3">
                    <Link to={appUrl.userEdit(user.user_id)} className="btn-secondary px-3 py-1">編集</Link>
                  </td>
                  <td className="px-4 py-3">
                    <Link to={listHref({ delete: String(user.user_id) })} className="btn-secondary px-3 py-1 text-red-600" preventScrollReset aria-label={`${user.user_name}を削除`}>削除</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ListSection>
      {deleting && (
        <DeleteDialog
          title={USER_MESSAGES.deleteConfirm}
          message={`${deleting.user_name}（${deleting.login_id}）`}
          cancelHref={listHref({ delete: null })}
          fields={{ user_id: String(deleting.user_id) }}
        />
      )}
    </Page>
  );
}

const VALID_OPTIONS = [
  { value: '0', label: '無効' },
  { value: '1', label: '有効' },
];
const ALERT_OPTIONS = ALERT_FILTERS.map((filter) => ({ value: String(filter), label: ALERT_FILTER_LABELS[filter] }));
