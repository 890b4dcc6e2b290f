import { type ActionFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { TokenRequestSchema } from '~/domain/auth-schemas';
import { apiError } from '~/http/access.server';
import { fieldErrors } from '~/http/api.server';
import { signInOriginOf } from '~/http/load-context.server';
import { LoginError, logIn } from '~/services/auth.server';
import { HashingBusy } from '~/services/password.server';
import { SignInThrottled } from '~/services/sign-in-limits.server';

// POST /on-reco/token (form body grant_type=password, username, password): the auth info.
// Failures are 400 {error, error_description}, OAuth-style, as the specification's client expects.
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'invalid_request', 'Use POST.');
  const form = Object.fromEntries(await request.formData().catch(() => new FormData()));
  const parsed = TokenRequestSchema.safeParse(form);
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    const error = fields.grant_type ? 'unsupported_grant_type' : 'invalid_request';
    return apiError(400, error, Object.values(fields).join('; '), { fields });
  }
  try {
    const auth = await logIn(getDb(), parsed.data.username, parsed.data.password, signInOriginOf(context));
    return json(auth, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    if (error instanceof LoginError) return apiError(400, 'invalid_grant', error.message);
    if (error instanceof SignInThrottled) return tooManyAttempts(error.message, error.retryAfterSeconds);
    if (error instanceof HashingBusy) return tooManyAttempts('The server is busy; retry in a moment.', 1);
    throw error;
  }
}

export const loader = () => apiError(405, 'invalid_request', 'Use POST.');

function tooManyAttempts(description: string, retryAfterSeconds: number): Response {
  const response = apiError(429, 'too_many_attempts', description);
  response.headers.set('Retry-After', String(retryAfterSeconds));
  return response;
}
