import { changePassword as changePasswordCall } from '~/domain/api/auth';
import { apiError } from '~/http/access.server';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { PasswordError, changePassword } from '~/services/passwords.server';

// POST /v1/user/pass {login_id, old_pass, new_pass, new_pass_verification}.
export const action = apiAction(changePasswordCall, async ({ viewer, input, db }) => {
  try {
    await changePassword(db, viewer, input);
    return { result: 'changed' as const };
  } catch (error) {
    if (error instanceof PasswordError) return apiError(400, 'invalid_request', error.message, { fields: { [error.field]: error.message } });
    throw error;
  }
});

export const loader = apiNotAllowed(changePasswordCall.path);
