import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { StoregroupQuerySchema } from '~/domain/lookup-schemas';
import { listStoregroups } from '~/models/lookups.server';
import { requireApiUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';

// GET /v1/storegroup?company_id: storegroup_id, storegroup_name, company_id, company_name.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request);
  const { company_id } = parseOrThrow(StoregroupQuerySchema, searchParamsOf(request));
  return json(await listStoregroups(getDb(), company_id));
}
