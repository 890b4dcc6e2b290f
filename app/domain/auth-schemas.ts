import { z } from 'zod';
import { dbText } from './input-schemas';

// POST /on-reco/token (form body). Field names are the specification's.
export const TokenRequestSchema = z.object({
  grant_type: z.literal('password', { errorMap: () => ({ message: 'grant_type must be password' }) }),
  username: dbText().trim().min(1, 'username is required').max(255),
  password: dbText().min(1, 'password is required').max(1024),
});

// POST /v1/user/passcode: the forgotten-password form sends the account's mail address or login id.
export const PasscodeRequestSchema = z.object({
  login_id: dbText().trim().min(1).max(255),
});

export const PASSWORD_RULE = /^\w{12,}$/;
export const PASSWORD_MESSAGES = {
  rule: '12 文字以上の半角英数字を使用してください',
  mismatch: '新しいパスワードと一致しません',
  wrongCurrent: 'パスワードが正しくありません',
  banner: '入力に誤りがあります',
  required: '入力してください',
  /** Beside the disabled 変更する button (001 §2 disables it until all three are filled): what is still empty. */
  missing: (labels: readonly string[]) => `未入力：${labels.join('、')}（3項目すべてを入力すると変更できます）`,
  success: 'パスワードを変更しました',
} as const;

// POST /v1/user/pass (001 §5: only the first failing message shows, on the new password field).
export const PasswordChangeSchema = z
  .object({
    login_id: dbText().trim().min(1).max(255),
    old_pass: dbText().min(1, PASSWORD_MESSAGES.required).max(1024),
    new_pass: dbText().max(1024).regex(PASSWORD_RULE, PASSWORD_MESSAGES.rule),
    new_pass_verification: dbText().max(1024),
  })
  .refine((value) => value.new_pass === value.new_pass_verification, {
    message: PASSWORD_MESSAGES.mismatch,
    path: ['new_pass'],
  });

export { FORGOT_PASSWORD_ERROR, LOGIN_ERROR, SESSION_EXPIRED_MESSAGE } from './auth-messages';

// ---- answers ----

/** POST /on-reco/token: the auth info of the specification (dates as HTTP dates). */
export const AuthInfoSchema = z.strictObject({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  '.issued': z.string(),
  '.expires': z.string(),
  user_id: z.number().int(),
  authority: z.number().int(),
});

/** DELETE /on-reco/token. */
export const TokenRevokedSchema = z.strictObject({ revoked: z.literal(true) });

/** POST /v1/user/pass. */
export const PasswordChangedSchema = z.strictObject({ result: z.literal('changed') });

/** POST /v1/user/passcode. */
export const PasscodeIssuedSchema = z.strictObject({ result: z.literal('issued') });
