import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { NotFound } from '~/components/not-found';
import { requireUser } from '~/http/access.server';

// Any other path: signed-in users see Page Not Found (404); others go to /login first.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return json(null, { status: 404 });
}

export default NotFound;
