import { requestPasscode } from '~/domain/api/auth';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { retryLater } from '~/http/failures.server';
import { clientOriginOf } from '~/http/load-context.server';
import { HashingBusy } from '~/services/password.server';
import { PasscodeThrottled, issueTemporaryPassword } from '~/services/passwords.server';

// POST /v1/user/passcode {login_id} (no auth header): mails a temporary password. The answer is
// the same whether the account exists (docs/decisions/090-sign-in-limits.md).
export const action = apiAction(requestPasscode, async ({ input, db, loadContext }) => {
  try {
    await issueTemporaryPassword(db, input.login_id, clientOriginOf(loadContext));
    return { result: 'issued' as const };
  } catch (error) {
    if (error instanceof PasscodeThrottled) return retryLater('too_many_requests', error.message, error.retryAfterSeconds);
    if (error instanceof HashingBusy) return retryLater('busy', 'The server is busy; retry in a moment.', 1);
    throw error;
  }
});

export const loader = apiNotAllowed(requestPasscode.path);
