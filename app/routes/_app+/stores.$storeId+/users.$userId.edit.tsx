import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { UserFormPage } from '~/components/users/user-form';
import { getDb } from '~/db/db.server';
import { appUrl, storeUrl } from '~/domain/urls';
import { requireStoreUser } from '~/http/access.server';
import { type UserFormResult, addGroupSlot, saveUserForm, userFormData } from '~/http/user-form.server';

// /stores/{store_id}/users/{user_id}/edit (001 §2 Store user edit): the same form prefilled,
// login id read-only; success or discard goes to the sensors show page's user info tab.

export const meta: MetaFunction = () => [{ title: 'ユーザー情報編集 | On-Reco' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'masterMenu');
  const data = await userFormData(getDb(), viewer, { userId: Number(params.userId) || -1 });
  if (!data) throw redirect(appUrl.notFound);
  return json({ storeId, ...data });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'masterMenu');
  const form = await request.formData();
  form.set('user_id', String(Number(params.userId) || ''));
  if (form.get('intent') === 'add_group') return addGroupSlot(form);
  return (await saveUserForm(getDb(), viewer, form, storeId)) ?? redirect(storeUrl.sensorSettings(storeId, { tab: 'users' }));
}

export default function StoreUserEditPage() {
  const data = useLoaderData<typeof loader>();
  return <UserFormPage title="ユーザー情報編集" mode="edit" closeTo={storeUrl.sensorSettings(data.storeId, { tab: 'users' })} data={data} result={useActionData<UserFormResult>()} />;
}
