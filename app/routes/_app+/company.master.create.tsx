import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node';
import { useActionData } from '@remix-run/react';
import { MasterForm } from '~/components/masters/master-form';
import { getDb } from '~/db/db.server';
import { CompanySaveSchema, MASTER_LIMITS, messagesByField } from '~/domain/master-schemas';
import { appUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { formFailure, formValues } from '~/http/master-forms.server';
import { getCompany } from '~/models/masters.server';
import { saveCompany } from '~/services/masters.server';

export const meta: MetaFunction = () => [{ title: '新規会社登録 | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'systemMenu');
  return null;
}

// 001 §5: the ID must not exist, checked by fetching the company; the save refuses a duplicate too (a race).
export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const values = formValues(await request.formData());
  const parsed = CompanySaveSchema.safeParse({ company_id: values.company_id, company_name: values.company_name, mode: 'create' });
  if (!parsed.success) return formFailure({ reason: 'invalid', fields: messagesByField(parsed.error) }, values);
  const db = getDb();
  if (await getCompany(db, parsed.data.company_id)) return formFailure({ ok: false, reason: 'duplicate', field: 'company_id' }, values);
  const result = await saveCompany(db, viewer, parsed.data, new Date());
  if (!result.ok) return formFailure(result, values);
  return redirect(appUrl.companyMaster);
}

export default function CompanyCreatePage() {
  const server = useActionData<typeof action>();
  return (
    <MasterForm
      title="新規会社登録"
      closeTo={appUrl.companyMaster}
      submitLabel="登録"
      schema={CompanySaveSchema}
      hidden={{ mode: 'create' }}
      initial={{ company_id: '', company_name: '' }}
      server={server}
      fields={[
        { name: 'company_id', label: '会社ID', kind: 'text', max: MASTER_LIMITS.companyId, placeholder: '半角英数' },
        { name: 'company_name', label: '会社名', kind: 'text', max: MASTER_LIMITS.companyName },
      ]}
    />
  );
}
