import { type ActionFunctionArgs, redirect } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { revokeAccessToken } from '~/models/access-tokens.server';
import { clearSessionHeaders, readSession } from '~/http/session.server';
import { appUrl } from '~/domain/urls';

// Logout revokes the token on the server and clears the cookie; GET does nothing so that a
// prefetch or a stray link cannot sign anyone out.
export async function action({ request }: ActionFunctionArgs) {
  const { token } = await readSession(request);
  if (token) await revokeAccessToken(getDb(), token, new Date());
  return redirect(appUrl.login, { headers: await clearSessionHeaders(request) });
}

export const loader = () => redirect(appUrl.dashboard);
