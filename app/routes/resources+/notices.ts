import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { NoticeListQuerySchema } from '~/domain/notice-schemas';
import { listNotices } from '~/models/notices.server';
import { requireUser } from '~/http/access.server';
import { parseOrThrow, searchParamsOf } from '~/http/api.server';

// The notifications popup's data: the same model call as GET /v1/notice, on the console session.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const { limit } = parseOrThrow(NoticeListQuerySchema, searchParamsOf(request));
  return json(await listNotices(getDb(), limit));
}
