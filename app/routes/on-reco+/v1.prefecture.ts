import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { PrefectureQuerySchema } from '~/domain/lookup-schemas';
import { listPrefectures } from '~/models/lookups.server';
import { requireApiUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';

// GET /v1/prefecture?region_id: prefecture_id (JIS code), prefecture_name.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request);
  const { region_id } = parseOrThrow(PrefectureQuerySchema, searchParamsOf(request));
  return json(await listPrefectures(getDb(), region_id));
}
