import type { LoaderFunctionArgs } from '@remix-run/node';
import { apiError, requireApiUser } from '~/http/access.server';

// Any other /on-reco/v1 path: 401 without a token (every v1 call needs one), else 404 JSON.
async function notFound({ request }: LoaderFunctionArgs) {
  await requireApiUser(request);
  return apiError(404, 'not_found', `No such call: ${request.method} ${new URL(request.url).pathname}`);
}

export const loader = notFound;
export const action = notFound;
