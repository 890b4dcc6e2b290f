import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { MasterForm } from '~/components/masters/master-form';
import { getDb } from '~/db/db.server';
import { MASTER_LIMITS, messagesByField, StoregroupSaveSchema } from '~/domain/master-schemas';
import { appUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { formFailure, formValues } from '~/http/master-forms.server';
import { listCompanies } from '~/models/lookups.server';
import { getStoregroup } from '~/models/masters.server';
import { saveStoregroup } from '~/services/masters.server';

export const meta: MetaFunction = () => [{ title: '新規店舗グループ登録 | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  return json({ companies: await listCompanies(getDb(), viewer) });
}

// 001 §5: company required; the ID unique (checked here and again by the save).
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const values = formValues(await request.formData());
  const parsed = StoregroupSaveSchema.safeParse({ storegroup_id: values.storegroup_id, company_id: values.company_id, storegroup_name: values.storegroup_name, mode: 'create' });
  if (!parsed.success) return formFailure({ reason: 'invalid', fields: messagesByField(parsed.error) }, values);
  const db = getDb();
  if (await getStoregroup(db, parsed.data.storegroup_id)) return formFailure({ ok: false, reason: 'duplicate', field: 'storegroup_id' }, values);
  const result = await saveStoregroup(db, viewer, parsed.data, new Date());
  if (!result.ok) return formFailure(result, values);
  return redirect(appUrl.storegroupMaster);
}

export default function StoregroupCreatePage() {
  const { companies } = useLoaderData<typeof loader>();
  const server = useActionData<typeof action>();
  return (
    <MasterForm
      title="新規店舗グループ登録"
      closeTo={appUrl.storegroupMaster}
      submitLabel="登録"
      schema={StoregroupSaveSchema}
      hidden={{ mode: 'create' }}
      initial={{ company_id: '', storegroup_id: '', storegroup_name: '' }}
      server={server}
      fields={[
        { name: 'company_id', label: '会社', kind: 'select', options: companies.map((company) => ({ value: company.company_id, label: company.company_name })) },
        { name: 'storegroup_id', label: '店舗グループID', kind: 'text', max: MASTER_LIMITS.storegroupId, placeholder: '半角英数' },
        { name: 'storegroup_name', label: '店舗グループ名', kind: 'text', max: MASTER_LIMITS.storegroupName },
      ]}
    />
  );
}
