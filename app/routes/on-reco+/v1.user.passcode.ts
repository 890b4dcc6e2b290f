import { requestPasscode } from '~/domain/api/auth';
import { apiError } from '~/http/access.server';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { PasswordError, issueTemporaryPassword } from '~/services/passwords.server';

// POST /v1/user/passcode {login_id} (no auth header): mails a temporary password.
export const action = apiAction(requestPasscode, async ({ input, db }) => {
  try {
    await issueTemporaryPassword(db, input.login_id);
    return { result: 'issued' as const };
  } catch (error) {
    if (error instanceof PasswordError) return apiError(400, 'invalid_request', error.message);
    throw error;
  }
});

export const loader = apiNotAllowed(requestPasscode.path);
