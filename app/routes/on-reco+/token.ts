import { issueToken } from '~/domain/api/auth';
import { apiError } from '~/http/access.server';
import { apiAction, apiNotAllowed } from '~/http/api-route.server';
import { LoginError, logIn } from '~/services/auth.server';

// POST /on-reco/token (form body grant_type=password, username, password): the auth info.
// Failures are 400 {error, error_description}, OAuth-style, as the specification's client expects,
// and so is the 405 of another method.
const useTokenPost = () => apiError(405, 'invalid_request', 'Use POST.');

function invalidTokenRequest(fields: Record<string, string>): Response {
  const error = fields.grant_type ? 'unsupported_grant_type' : 'invalid_request';
  return apiError(400, error, Object.values(fields).join('; '), { fields });
}

export const action = apiAction(
  issueToken,
  async ({ input, db }) => {
    try {
      return await logIn(db, input.username, input.password);
    } catch (error) {
      if (error instanceof LoginError) return apiError(400, 'invalid_grant', error.message);
      throw error;
    }
  },
  { invalid: invalidTokenRequest, notAllowed: useTokenPost },
);

export const loader = apiNotAllowed(issueToken.path, useTokenPost);
