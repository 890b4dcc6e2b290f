import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigate, useNavigation, useSearchParams } from '@remix-run/react';
import { ListSection, Page, useStackedTable } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { getDb } from '~/db/db.server';
import { ja } from '~/domain/texts/ja';
import { appUrl, withQuery } from '~/domain/urls';
import { ALERT_FILTER_LABELS, LANGUAGE_LABELS, USER_MESSAGES, UserDeleteSchema, UserListQuerySchema, alertFilterText } from '~/domain/user-master';
import { requireRole } from '~/http/access.server';
import { listAssignableGroups, listUsers } from '~/models/user-master.server';
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
  const db = getDb();
  const [list, groups] = await Promise.all([listUsers(db, viewer, query), listAssignableGroups(db, viewer)]);
  const confirming = Number(url.searchParams.get('confirm_delete')) || null;
  return json({
    ...list,
    page: query.page_no,
    pageSize: query.page_count,
    groups,
    confirming: list.users.find((user) => user.user_id === confirming) ?? null,
    deleteFailed: url.searchParams.has('delete_failed'),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  const form = Object.fromEntries(await request.formData());
  const parsed = UserDeleteSchema.safeParse(form);
  const result = parsed.success ? await deleteUser(getDb(), viewer, parsed.data.user_id, new Date()) : null;
  // 001 §4, §8: after a delete (or a failed one, with its message) the search resets and page 1 loads.
  return redirect(result?.ok ? appUrl.userMaster : withQuery(appUrl.userMaster, { delete_failed: 1 }));
}

const mailsOf = (user: { mailaddress1: string | null; mailaddress2: string | null; mailaddress3: string | null }) =>
  [user.mailaddress1, user.mailaddress2, user.mailaddress3].filter((mail): mail is string => !!mail);

export default function UserMasterPage() {
  const stack = useStackedTable();
  const { all_count, users, page, pageSize, groups, confirming, deleteFailed } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const value = (name: string) => searchParams.get(name) ?? '';
  const filtered = ['mailaddress', 'valid_flg', 'alert_filter', 'usergroup_id', 'user_id'].some((name) => value(name) !== '');
  const cancelHref = (() => {
    const next = new URLSearchParams(searchParams);
    next.delete('confirm_delete');
    return `?${next}`;
  })();
  const deleteHref = (userId: number) => {
    const next = new URLSearchParams(searchParams);
    next.set('confirm_delete', String(userId));
    return `?${next}`;
  };
  return (
    <Page
      title="ユーザー一覧"
      actions={
        <Link to={appUrl.userCreate} className="btn-primary">
          新規追加
        </Link>
      }
    >
      <StatusBar tone="error" message={deleteFailed ? USER_MESSAGES.deleteFailed : null} />
      <Form method="get" className="card mb-4 space-y-3 p-4" role="search">
        <div className="flex flex-wrap items-center gap-3">
          <input type="search" name="user_name" defaultValue={value('user_name')} placeholder="ユーザー名検索" aria-label="ユーザー名検索" className="input max-w-xs" />
          <button type="submit" className="btn-secondary">検索</button>
        </div>
        <details open={filtered} className="text-sm">
          <summary className="cursor-pointer select-none font-medium text-slate-600">絞り込み</summary>
          <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
            <label className="block">
              <span className="label">メールアドレス</span>
              <input name="mailaddress" defaultValue={value('mailaddress')} className="input" placeholder="Enterで検索" />
            </label>
            <label className="block">
              <span className="label">有効</span>
              <select name="valid_flg" defaultValue={value('valid_flg')} className="input" onChange={(event) => event.currentTarget.form?.requestSubmit()}>
                <option value="">未選択</option>
                <option value="0">無効</option>
                <option value="1">有効</option>
              </select>
            </label>
            <label className="block">
              <span className="label">警報</span>
              <select name="alert_filter" defaultValue={value('alert_filter')} className="input" onChange={(event) => event.currentTarget.form?.requestSubmit()}>
                <option value="">未選択</option>
                {[0, 1, 2].map((filter) => (
                  <option key={filter} value={filter}>{ALERT_FILTER_LABELS[filter]}</option>
                ))}
              </select>
            </label>
            <label className="block">
              <span className="label">ユーザーグループ</span>
              <select name="usergroup_id" defaultValue={value('usergroup_id')} className="input" onChange={(event) => event.currentTarget.form?.requestSubmit()}>
                <option value="">未選択</option>
                {groups.map((group) => (
                  <option key={group.usergroup_id} value={group.usergroup_id}>{group.usergroup_name}</option>
                ))}
              </select>
            </label>
            <label className="block">
              <span className="label">ユーザーID</span>
              <input name="user_id" defaultValue={value('user_id')} inputMode="numeric" className="input" placeholder="Enterで検索" />
            </label>
          </div>
        </details>
      </Form>
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
                    <Link to={deleteHref(user.user_id)} className="btn-secondary px-3 py-1 text-red-600" preventScrollReset aria-label={`${user.user_name}を削除`}>削除</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ListSection>
      {confirming && (
        <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 px-4" onKeyDown={(event) => event.key === 'Escape' && navigate(cancelHref, { preventScrollReset: true })}>
          <div role="alertdialog" aria-modal="true" aria-labelledby="delete-title" className="card w-full max-w-md p-6">
            <h2 id="delete-title" className="text-base font-semibold text-slate-800">{USER_MESSAGES.deleteConfirm}</h2>
            <p className="mt-2 text-sm text-slate-600">{confirming.user_name}（{confirming.login_id}）</p>
            <Form method="post" className="mt-6 flex justify-end gap-2">
              <input type="hidden" name="user_id" value={confirming.user_id} />
              <Link to={cancelHref} className="btn-secondary" preventScrollReset>キャンセル</Link>
              <button type="submit" className="btn-danger" autoFocus disabled={navigation.state === 'submitting'}>データを削除</button>
            </Form>
          </div>
        </div>
      )}
    </Page>
  );
}
