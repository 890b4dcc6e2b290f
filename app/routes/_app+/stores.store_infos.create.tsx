import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { StoreCreatedDialog } from '~/components/stores/store-created-dialog';
import { StoreForm } from '~/components/stores/store-form';
import { getDb } from '~/db/db.server';
import { EMPTY_STORE_FORM } from '~/domain/store-form';
import { can } from '~/domain/roles';
import { appUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { type StoreFormResult, saveStoreForm, storeFormLookups } from '~/http/store-form.server';

// /stores/store_infos/create (001 §2 Store create): success shows a confirmation with the next
// steps, whose button goes to the new store's temperature image page; discard goes to the
// dashboard. マスタ管理: administrators, case and area managers (a manager's store must carry one
// of their own groups: the service refuses otherwise).

export const meta: MetaFunction = () => [{ title: '新規店舗作成 | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  return json(await storeFormLookups(getDb(), viewer));
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  const form = await request.formData();
  const result = await saveStoreForm(getDb(), viewer, form, 'create');
  if (result instanceof Response) return result;
  // Saved: the page says so and names the next steps (issue 33 item 7); its button goes on to the store.
  return json<StoreCreated>({ ok: true, storeId: result.storeId, storeName: String(form.get('store_name') ?? '').trim(), managesStores: can(viewer.authority, 'storeManagement') });
}

type StoreCreated = { ok: true; storeId: string; storeName: string; managesStores: boolean };

export default function StoreCreatePage() {
  const lookups = useLoaderData<typeof loader>();
  const result = useActionData<StoreFormResult | StoreCreated>();
  const refused = result && !result.ok ? result : null;
  return (
    <>
      <StoreForm
        key={JSON.stringify(refused?.values ?? null)}
        title="新規店舗作成"
        mode="create"
        initial={refused?.values ?? EMPTY_STORE_FORM}
        {...lookups}
        closeTo={appUrl.dashboard}
        fields={refused?.fields}
        banner={refused?.banner}
      />
      {result?.ok && <StoreCreatedDialog storeId={result.storeId} storeName={result.storeName} managesStores={result.managesStores} />}
    </>
  );
}
