import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { MasterForm } from '~/components/masters/master-form';
import { getDb } from '~/db/db.server';
import { MASTER_LIMITS, messagesByField, UsergroupIdSchema, UsergroupSaveSchema } from '~/domain/master-schemas';
import { appUrl } from '~/domain/urls';
import { requireRole } from '~/http/access.server';
import { formFailure, formValues } from '~/http/master-forms.server';
import { listAuthorities } from '~/models/lookups.server';
import { getUsergroup } from '~/models/masters.server';
import { saveUsergroup } from '~/services/masters.server';

export const meta: MetaFunction = () => [{ title: 'ユーザーグループ情報編集 | On-Reco' }];

function usergroupIdOf(params: { usergroupId?: string }): number {
  const parsed = UsergroupIdSchema.safeParse({ usergroup_id: params.usergroupId ?? '' });
  if (!parsed.success) throw new Response('Not Found', { status: 404 });
  return parsed.data.usergroup_id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'systemMenu');
  const db = getDb();
  const [group, authorities] = await Promise.all([getUsergroup(db, usergroupIdOf(params)), listAuthorities(db)]);
  if (!group) throw new Response('Not Found', { status: 404 });
  return json({ group, authorities });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'systemMenu');
  const usergroupId = usergroupIdOf(params);
  const values = formValues(await request.formData());
  const parsed = UsergroupSaveSchema.safeParse({ usergroup_id: usergroupId, usergroup_name: values.usergroup_name, usergroup_authority: values.usergroup_authority });
  if (!parsed.success) return formFailure({ reason: 'invalid', fields: messagesByField(parsed.error) }, values);
  const result = await saveUsergroup(getDb(), viewer, parsed.data, new Date());
  if (!result.ok) return formFailure(result, values);
  return redirect(appUrl.usergroupMaster);
}

export default function UsergroupEditPage() {
  const { group, authorities } = useLoaderData<typeof loader>();
  const server = useActionData<typeof action>();
  return (
    <MasterForm
      title="ユーザーグループ情報編集"
      closeTo={appUrl.usergroupMaster}
      submitLabel="保存"
      schema={UsergroupSaveSchema}
      initial={{ usergroup_id: String(group.usergroup_id), usergroup_name: group.usergroup_name, usergroup_authority: String(group.usergroup_authority) }}
      server={server}
      fields={[
        { name: 'usergroup_id', label: 'ユーザーグループID', kind: 'text', readOnly: true },
        { name: 'usergroup_name', label: 'ユーザーグループ名', kind: 'text', max: MASTER_LIMITS.usergroupName },
        { name: 'usergroup_authority', label: '権限', kind: 'select', options: authorities.map((item) => ({ value: String(item.authority), label: item.authorityName })) },
      ]}
    />
  );
}
