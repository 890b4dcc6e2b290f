import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { listRegions } from '~/models/lookups.server';
import { requireApiUser } from '~/http/access.server';

// GET /v1/region: region_id, region_name.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request);
  return json(await listRegions(getDb()));
}
