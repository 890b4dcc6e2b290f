import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { MasterForm } from '~/components/masters/master-form';
import { getDb } from '~/db/db.server';
import { MASTER_LIMITS, messagesByField, UsergroupSaveSchema } from '~/domain/master-schemas';
import { appUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { formFailure, formValues } from '~/http/master-forms.server';
import { listAuthorities } from '~/models/lookups.server';
import { saveUsergroup } from '~/services/masters.server';

export const meta: MetaFunction = () => [{ title: '新規ユーザーグループ登録 | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'systemMenu');
  return json({ authorities: await listAuthorities(getDb()) });
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const form = await request.formData();
  const values = formValues(form);
  const parsed = UsergroupSaveSchema.safeParse({ usergroup_name: values.usergroup_name, usergroup_authority: values.usergroup_authority });
  if (!parsed.success) return formFailure({ reason: 'invalid', fields: messagesByField(parsed.error) }, values);
  const result = await saveUsergroup(getDb(), viewer, parsed.data, new Date());
  if (!result.ok) return formFailure(result, values);
  return redirect(appUrl.usergroupMaster);
}

export default function UsergroupCreatePage() {
  const { authorities } = useLoaderData<typeof loader>();
  const server = useActionData<typeof action>();
  return (
    <MasterForm
      title="新規ユーザーグループ登録"
      closeTo={appUrl.usergroupMaster}
      submitLabel="登録"
      schema={UsergroupSaveSchema}
      initial={{ usergroup_name: '', usergroup_authority: '' }}
      server={server}
      fields={[
        { name: 'usergroup_name', label: 'ユーザーグループ名', kind: 'text', max: MASTER_LIMITS.usergroupName },
        { name: 'usergroup_authority', label: '権限', kind: 'select', options: authorities.map((item) => ({ value: String(item.authority), label: item.authorityName })) },
      ]}
    />
  );
}
