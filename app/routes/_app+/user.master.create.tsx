import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { UserFormPage } from '~/components/users/user-form';
import { getDb } from '~/db/db.server';
import { appUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { type UserFormResult, addGroupSlot, saveUserForm, userFormData } from '~/http/user-form.server';

// /user/master/create (001 §2 User master): the new user form; success goes to the user list.

export const meta: MetaFunction = () => [{ title: '新規ユーザー登録 | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  return json(await userFormData(getDb(), viewer, {}));
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  const form = await request.formData();
  if (form.get('intent') === 'add_group') return addGroupSlot(form);
  return (await saveUserForm(getDb(), viewer, form)) ?? redirect(appUrl.userMaster);
}

export default function UserCreatePage() {
  const data = useLoaderData<typeof loader>()!;
  return <UserFormPage title="新規ユーザー登録" mode="create" closeTo={appUrl.userMaster} data={data} result={useActionData<UserFormResult>()} />;
}
