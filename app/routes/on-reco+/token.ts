import { issueToken, revokeToken } from '~/domain/api/auth';
import { apiError, bearerTokenOf } from '~/http/access.server';
import { apiAction, apiActions, apiNotAllowed } from '~/http/api-route.server';
import { retryLater } from '~/http/failures.server';
import { clientOriginOf } from '~/http/load-context.server';
import { revokeAccessToken } from '~/models/access-tokens.server';
import { LoginError, logIn } from '~/services/auth.server';
import { HashingBusy } from '~/services/password.server';
import { SignInThrottled } from '~/services/sign-in-limits.server';

// POST /on-reco/token (form body grant_type=password, username, password): the auth info;
// DELETE /on-reco/token (bearer): sign out, the token revoked.
// Failures are 400 {error, error_description}, OAuth-style, as the specification's client expects,
// and so is the 405 of another method; too many failures are 429 (docs/decisions/090-sign-in-limits.md).
const useTokenPost = () => apiError(405, 'invalid_request', 'Use POST (sign in) or DELETE (sign out).');

function invalidTokenRequest(fields: Record<string, string>): Response {
  const error = fields.grant_type ? 'unsupported_grant_type' : 'invalid_request';
  return apiError(400, error, Object.values(fields).join('; '), { fields });
}

const signIn = apiAction(
  issueToken,
  async ({ input, db, loadContext }) => {
    try {
      return await logIn(db, input.username, input.password, clientOriginOf(loadContext));
    } catch (error) {
      if (error instanceof LoginError) return apiError(400, 'invalid_grant', error.message);
      if (error instanceof SignInThrottled) return retryLater('too_many_attempts', error.message, error.retryAfterSeconds);
      if (error instanceof HashingBusy) return retryLater('busy', 'The server is busy; retry in a moment.', 1);
      throw error;
    }
  },
  { invalid: invalidTokenRequest, notAllowed: useTokenPost },
);

const signOut = apiAction(revokeToken, async ({ request, db, now }) => {
  await revokeAccessToken(db, bearerTokenOf(request)!, now);
  return { revoked: true } as const;
});

export const action = apiActions(signIn, signOut);

export const loader = apiNotAllowed(issueToken.path, useTokenPost);
