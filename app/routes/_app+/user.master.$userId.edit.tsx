import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { UserFormPage } from '~/components/users/user-form';
import { getDb } from '~/db/db.server';
import { appUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { type UserFormResult, addGroupSlot, saveUserForm, userFormData } from '~/http/user-form.server';

// /user/master/{user_id}/edit (001 §2 User master): the same form prefilled, login id read-only.
// A user the viewer may not see "does not exist" (/not_found); success goes to the user list.

export const meta: MetaFunction = () => [{ title: 'ユーザー情報編集 | On-Reco' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  const data = await userFormData(getDb(), viewer, { userId: Number(params.userId) || -1 });
  if (!data) throw redirect(appUrl.notFound);
  return json(data);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  const form = await request.formData();
  form.set('user_id', String(Number(params.userId) || ''));
  if (form.get('intent') === 'add_group') return addGroupSlot(form);
  return (await saveUserForm(getDb(), viewer, form)) ?? redirect(appUrl.userMaster);
}

export default function UserEditPage() {
  const data = useLoaderData<typeof loader>();
  return <UserFormPage title="ユーザー情報編集" mode="edit" closeTo={appUrl.userMaster} data={data} result={useActionData<UserFormResult>()} />;
}
