import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { NotFound } from '~/components/not-found';
import { requireUser } from '~/http/access.server';

// Where a store that cannot be loaded (unknown, or not the viewer's) sends the user.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return json(null, { status: 404 });
}

export default NotFound;
