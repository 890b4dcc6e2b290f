import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { MasterForm } from '~/components/masters/master-form';
import { getDb } from '~/db/db.server';
import { CompanyIdSchema, CompanySaveSchema, MASTER_LIMITS, messagesByField } from '~/domain/master-schemas';
import { appUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { formFailure, formValues } from '~/http/master-forms.server';
import { getCompany } from '~/models/masters.server';
import { saveCompany } from '~/services/masters.server';

export const meta: MetaFunction = () => [{ title: '会社情報編集 | On-Reco' }];

function companyIdOf(params: { companyId?: string }): string {
  const parsed = CompanyIdSchema.safeParse({ company_id: params.companyId ?? '' });
  if (!parsed.success) throw new Response('Not Found', { status: 404 });
  return parsed.data.company_id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'systemMenu');
  const company = await getCompany(getDb(), companyIdOf(params));
  if (!company) throw new Response('Not Found', { status: 404 });
  return json({ company });
}

// The ID is read-only on edit (001 §5): it is the URL's, whatever the form sends.
export async function action({ request, params }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const companyId = companyIdOf(params);
  const values: Record<string, string> = { ...formValues(await request.formData()), company_id: companyId };
  const parsed = CompanySaveSchema.safeParse({ company_id: companyId, company_name: values.company_name, mode: 'update' });
  if (!parsed.success) return formFailure({ reason: 'invalid', fields: messagesByField(parsed.error) }, values);
  const result = await saveCompany(getDb(), viewer, parsed.data, new Date());
  if (!result.ok) return formFailure(result, values);
  return redirect(appUrl.companyMaster);
}

export default function CompanyEditPage() {
  const { company } = useLoaderData<typeof loader>();
  const server = useActionData<typeof action>();
  return (
    <MasterForm
      title="会社情報編集"
      closeTo={appUrl.companyMaster}
      submitLabel="保存"
      schema={CompanySaveSchema}
      hidden={{ mode: 'update' }}
      initial={{ company_id: company.company_id, company_name: company.company_name }}
      server={server}
      fields={[
        { name: 'company_id', label: '会社ID', kind: 'text', readOnly: true },
        { name: 'company_name', label: '会社名', kind: 'text', max: MASTER_LIMITS.companyName },
      ]}
    />
  );
}
