import { PasscodeIssuedSchema, PasscodeRequestSchema, PasswordChangedSchema, PasswordChangeSchema, AuthInfoSchema, TokenRequestSchema, TokenRevokedSchema } from '../auth-schemas';
import { z } from 'zod';
import { QuietHoursSaveSchema } from '../quiet-hours';
import { UserQuerySchema, UserSummarySchema } from '../user-schemas';
import { body, defineCall, jsonAnswer, query } from './call';

// Sign-in and the user's own account.

export const issueToken = defineCall('issueToken', 'POST /on-reco/token', {
  summary: 'Sign in: a bearer token for the /on-reco/v1 calls',
  description: 'OAuth 2 password grant (form body). Failures are 400 {error, error_description} as the specification\'s client expects.',
  access: { kind: 'public' },
  input: body(TokenRequestSchema, { encoding: 'form' }),
  answer: jsonAnswer(AuthInfoSchema, 'The auth info (Cache-Control: no-store).'),
  errors: [
    { status: 400, error: 'unsupported_grant_type', when: 'grant_type is not password' },
    { status: 400, error: 'invalid_grant', when: 'the user name or password is incorrect, or the user is not valid (the same answer for an unknown id)' },
    { status: 429, error: 'too_many_attempts', when: 'too many failed sign-ins for this account and address, this address, or this account from an unknown address (Retry-After)' },
    { status: 429, error: 'busy', when: 'too many password checks at once (Retry-After)' },
  ],
});

export const revokeToken = defineCall('revokeToken', 'DELETE /on-reco/token', {
  summary: 'Sign out: revoke the bearer token the request carries',
  description: 'The token stops working at once (the CLI\'s logout). Other tokens of the user stay valid.',
  answer: jsonAnswer(TokenRevokedSchema, 'Revoked.'),
});

export const changePassword = defineCall('changePassword', 'POST /on-reco/v1/user/pass', {
  summary: 'Change the signed-in user\'s password',
  input: body(PasswordChangeSchema),
  answer: jsonAnswer(PasswordChangedSchema, 'Changed.'),
  errors: [{ status: 400, error: 'invalid_request', when: 'the current password is wrong or the new one breaks the rule (fields names it)' }],
});

export const requestPasscode = defineCall('requestPasscode', 'POST /on-reco/v1/user/passcode', {
  summary: 'Mail a temporary password (forgotten password)',
  access: { kind: 'public' },
  input: body(PasscodeRequestSchema),
  answer: jsonAnswer(PasscodeIssuedSchema, 'Answered alike whether or not a valid user has this login id or mail address; the mail follows when one has.'),
  errors: [
    { status: 429, error: 'too_many_requests', when: 'more than 10 requests an hour from this address (Retry-After)' },
    { status: 429, error: 'busy', when: 'too many password hashes at once (Retry-After)' },
  ],
});

export const getUser = defineCall('getUser', 'GET /on-reco/v1/users', {
  summary: 'One user\'s summary',
  description: 'A user reads their own record; administrators read anyone\'s.',
  input: query(UserQuerySchema),
  answer: jsonAnswer(UserSummarySchema, 'user_id, login_id, user_name, mailaddress1.'),
  errors: [
    { status: 403, error: 'forbidden', when: 'another user\'s record, for anyone but an administrator' },
    { status: 404, error: 'not_found', when: 'no such user' },
  ],
  references: { user_id: 'user' },
});

const QuietHoursAnswerSchema = z.strictObject({
  quiet_start: z.string().regex(/^\d{2}:\d{2}$/).nullable().describe('HH:MM, Japan time; null: no quiet hours.'),
  quiet_end: z.string().regex(/^\d{2}:\d{2}$/).nullable(),
});

export const getQuietHours = defineCall('getQuietHours', 'GET /on-reco/v1/user/quiet_hours', {
  summary: 'The signed-in user\'s quiet hours',
  answer: jsonAnswer(QuietHoursAnswerSchema, 'Both times, or both null.'),
});

export const saveQuietHours = defineCall('saveQuietHours', 'POST /on-reco/v1/user/quiet_hours', {
  summary: 'Set or clear the signed-in user\'s quiet hours',
  description:
    'quiet_start and quiet_end as HH:MM, Japan time (start after end spans midnight), or both null / empty to clear. Escalation steps with quiet_hours true hold this user\'s mail until the quiet hours end (decision 315); other notifications are not held. Audited.',
  input: body(QuietHoursSaveSchema),
  answer: jsonAnswer(QuietHoursAnswerSchema, 'The quiet hours as saved.'),
});
