import { type ActionFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { PasscodeRequestSchema } from '~/domain/auth-schemas';
import { apiError } from '~/http/access.server';
import { bodyOf, methodNotAllowed, parseOrThrow } from '~/http/api.server';
import { PasswordError, issueTemporaryPassword } from '~/services/passwords.server';

// POST /v1/user/passcode {login_id} (no auth header): mails a temporary password.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const { login_id } = parseOrThrow(PasscodeRequestSchema, await bodyOf(request));
  try {
    await issueTemporaryPassword(getDb(), login_id);
    return json({ result: 'issued' });
  } catch (error) {
    if (error instanceof PasswordError) return apiError(400, 'invalid_request', error.message);
    throw error;
  }
}
