import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { UserFormPage } from '~/components/users/user-form';
import { getDb } from '~/db/db.server';
import { storeUrl } from '~/domain/urls';
import { requireStoreUser } from '~/http/access.server';
import { type UserFormResult, addGroupSlot, saveUserForm, userFormData } from '~/http/user-form.server';

// /stores/{store_id}/users/create (001 §2 Store user create): the user form with the store's
// groups pre-selected; success or discard goes to the sensors show page's user info tab.

export const meta: MetaFunction = () => [{ title: '新規ユーザー登録 | On-Reco' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'masterMenu');
  return json({ storeId, ...(await userFormData(getDb(), viewer, { storeId }))! });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'masterMenu');
  const form = await request.formData();
  if (form.get('intent') === 'add_group') return addGroupSlot(form);
  return (await saveUserForm(getDb(), viewer, form, storeId)) ?? redirect(storeUrl.sensorSettings(storeId, { tab: 'users' }));
}

export default function StoreUserCreatePage() {
  const data = useLoaderData<typeof loader>();
  return <UserFormPage title="新規ユーザー登録" mode="create" closeTo={storeUrl.sensorSettings(data.storeId, { tab: 'users' })} data={data} result={useActionData<UserFormResult>()} />;
}
