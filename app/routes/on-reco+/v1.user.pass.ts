import { type ActionFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { PasswordChangeSchema } from '~/domain/auth-schemas';
import { apiError, requireApiUser } from '~/http/access.server';
import { bodyOf, methodNotAllowed, parseOrThrow } from '~/http/api.server';
import { PasswordError, changePassword } from '~/services/passwords.server';

// POST /v1/user/pass {login_id, old_pass, new_pass, new_pass_verification}.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const viewer = await requireApiUser(request);
  const input = parseOrThrow(PasswordChangeSchema, await bodyOf(request));
  try {
    await changePassword(getDb(), viewer, input);
    return json({ result: 'changed' });
  } catch (error) {
    if (error instanceof PasswordError) return apiError(400, 'invalid_request', error.message, { fields: { [error.field]: error.message } });
    throw error;
  }
}
