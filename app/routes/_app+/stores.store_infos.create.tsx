import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { StoreForm } from '~/components/stores/store-form';
import { getDb } from '~/db/db.server';
import { EMPTY_STORE_FORM } from '~/domain/store-form';
import { appUrl, storeUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { type StoreFormResult, saveStoreForm, storeFormLookups } from '~/http/store-form.server';

// /stores/store_infos/create (001 §2 Store create): success goes to the new store's temperature
// image page, discard to the dashboard. マスタ管理: administrators, case and area managers (a
// manager's store must carry one of their own groups: the service refuses otherwise).

export const meta: MetaFunction = () => [{ title: '新規店舗作成 | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  return json(await storeFormLookups(getDb(), viewer));
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  const result = await saveStoreForm(getDb(), viewer, await request.formData(), 'create');
  return result instanceof Response ? result : redirect(storeUrl.sensors(result.storeId, 'image'));
}

export default function StoreCreatePage() {
  const lookups = useLoaderData<typeof loader>();
  const result = useActionData<StoreFormResult>();
  return (
    <StoreForm
      key={JSON.stringify(result?.values ?? null)}
      title="新規店舗作成"
      mode="create"
      initial={result?.values ?? EMPTY_STORE_FORM}
      {...lookups}
      closeTo={appUrl.dashboard}
      fields={result?.fields}
      banner={result?.banner}
    />
  );
}
