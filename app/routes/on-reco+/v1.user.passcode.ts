import { type ActionFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { PasscodeRequestSchema } from '~/domain/auth-schemas';
import { apiError } from '~/http/access.server';
import { bodyOf, methodNotAllowed, parseOrThrow } from '~/http/api.server';
import { signInOriginOf } from '~/http/load-context.server';
import { HashingBusy } from '~/services/password.server';
import { PasscodeThrottled, issueTemporaryPassword } from '~/services/passwords.server';

// POST /v1/user/passcode {login_id} (no auth header): mails a temporary password. The answer is
// the same whether the account exists (docs/decisions/090-sign-in-limits.md).
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const { login_id } = parseOrThrow(PasscodeRequestSchema, await bodyOf(request));
  try {
    await issueTemporaryPassword(getDb(), login_id, signInOriginOf(context));
    return json({ result: 'issued' });
  } catch (error) {
    if (error instanceof PasscodeThrottled) return retryLater(error.message, error.retryAfterSeconds);
    if (error instanceof HashingBusy) return retryLater('The server is busy; retry in a moment.', 1);
    throw error;
  }
}

function retryLater(description: string, retryAfterSeconds: number): Response {
  const response = apiError(429, 'too_many_requests', description);
  response.headers.set('Retry-After', String(retryAfterSeconds));
  return response;
}
