import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { StoreListQuerySchema } from '~/domain/store-list';
import { listStores } from '~/models/store-list.server';
import { requireApiUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';

// GET /v1/store_list: all_count, alert_count and one page of stores, alert messages included.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireApiUser(request);
  const query = parseOrThrow(StoreListQuerySchema, searchParamsOf(request));
  return json(await listStores(getDb(), viewer, query, viewer.language));
}
