import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { listCompanies } from '~/models/lookups.server';
import { requireApiUser } from '~/http/access.server';

// GET /v1/company: company_id, company_name.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request);
  return json(await listCompanies(getDb()));
}
