import { type ActionFunctionArgs, type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { NoticeListQuerySchema, NoticeSchema } from '~/domain/notice-schemas';
import { createNotice, listNotices } from '~/models/notices.server';
import { requireApiRole, requireApiUser } from '~/http/access.server';
import { bodyOf, methodNotAllowed, parseOrThrow, searchParamsOf } from '~/http/api.server';

// GET /v1/notice?limit=N: the newest notices. POST /v1/notice {title, content}: administrators only.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireApiUser(request);
  const { limit } = parseOrThrow(NoticeListQuerySchema, searchParamsOf(request));
  return json(await listNotices(getDb(), limit));
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const viewer = await requireApiRole(request, 'createNotice');
  const input = parseOrThrow(NoticeSchema, await bodyOf(request));
  return json(await createNotice(getDb(), { ...input, createdBy: viewer.userId }), { status: 201 });
}
