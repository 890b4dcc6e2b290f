import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { StoreForm } from '~/components/stores/store-form';
import { getDb } from '~/db/db.server';
import { storeFormValuesOf } from '~/domain/store-form';
import { appUrl, storeUrl } from '~/domain/urls';
import { requireStoreUser } from '~/http/access.server';
import { type StoreFormResult, saveStoreForm, storeFormLookups } from '~/http/store-form.server';
import { getStoreInfo } from '~/models/store-management.server';

// /stores/{store_id}/store_infos/edit (001 §2 Store edit), with the store sidebar: prefilled;
// success or discard goes to the store management page. 店舗管理 (administrators, maintenance).

export const meta: MetaFunction = () => [{ title: '店舗情報編集 | On-Reco' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'storeManagement');
  const db = getDb();
  const store = await getStoreInfo(db, viewer, storeId);
  if (!store) throw redirect(appUrl.notFound);
  return json({ storeId, workingState: store.working_state, initial: storeFormValuesOf(store), ...(await storeFormLookups(db, viewer, storeId)) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'storeManagement');
  const form = await request.formData();
  form.set('store_id', storeId);
  const result = await saveStoreForm(getDb(), viewer, form, 'edit');
  return result instanceof Response ? result : redirect(storeUrl.management(storeId));
}

export default function StoreEditPage() {
  const { storeId, workingState, initial, ...lookups } = useLoaderData<typeof loader>();
  const result = useActionData<StoreFormResult>();
  return (
    <StoreForm
      key={JSON.stringify(result?.values ?? null)}
      title="店舗情報編集"
      mode="edit"
      initial={result?.values ?? initial}
      workingState={workingState}
      {...lookups}
      closeTo={storeUrl.management(storeId)}
      fields={result?.fields}
      banner={result?.banner}
    />
  );
}
