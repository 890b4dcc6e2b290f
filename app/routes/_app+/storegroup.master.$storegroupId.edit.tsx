import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { MasterForm } from '~/components/masters/master-form';
import { getDb } from '~/db/db.server';
import { MASTER_LIMITS, messagesByField, StoregroupIdSchema, StoregroupSaveSchema } from '~/domain/master-schemas';
import { appUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { formFailure, formValues } from '~/http/master-forms.server';
import { listCompanies } from '~/models/lookups.server';
import { getStoregroup } from '~/models/masters.server';
import { saveStoregroup } from '~/services/masters.server';

export const meta: MetaFunction = () => [{ title: '店舗グループ情報編集 | On-Reco' }];

function storegroupIdOf(params: { storegroupId?: string }): string {
  const parsed = StoregroupIdSchema.safeParse({ storegroup_id: params.storegroupId ?? '' });
  if (!parsed.success) throw new Response('Not Found', { status: 404 });
  return parsed.data.storegroup_id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const db = getDb();
  const [group, companies] = await Promise.all([getStoregroup(db, storegroupIdOf(params)), listCompanies(db, viewer)]);
  if (!group) throw new Response('Not Found', { status: 404 });
  return json({ group, companies });
}

// The ID is read-only on edit (001 §5): the URL's; no uniqueness check.
export async function action({ request, params }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const storegroupId = storegroupIdOf(params);
  const values: Record<string, string> = { ...formValues(await request.formData()), storegroup_id: storegroupId };
  const parsed = StoregroupSaveSchema.safeParse({ storegroup_id: storegroupId, company_id: values.company_id, storegroup_name: values.storegroup_name, mode: 'update' });
  if (!parsed.success) return formFailure({ reason: 'invalid', fields: messagesByField(parsed.error) }, values);
  const result = await saveStoregroup(getDb(), viewer, parsed.data, new Date());
  if (!result.ok) return formFailure(result, values);
  return redirect(appUrl.storegroupMaster);
}

export default function StoregroupEditPage() {
  const { group, companies } = useLoaderData<typeof loader>();
  const server = useActionData<typeof action>();
  return (
    <MasterForm
      title="店舗グループ情報編集"
      closeTo={appUrl.storegroupMaster}
      submitLabel="保存"
      schema={StoregroupSaveSchema}
      hidden={{ mode: 'update' }}
      initial={{ company_id: group.company_id, storegroup_id: group.storegroup_id, storegroup_name: group.storegroup_name }}
      server={server}
      fields={[
        { name: 'company_id', label: '会社', kind: 'select', options: companies.map((company) => ({ value: company.company_id, label: company.company_name })) },
        { name: 'storegroup_id', label: '店舗グループID', kind: 'text', readOnly: true },
        { name: 'storegroup_name', label: '店舗グループ名', kind: 'text', max: MASTER_LIMITS.storegroupName },
      ]}
    />
  );
}
