// The sign-in screens' fixed messages, apart from auth-schemas.ts: the layout and the login page
// show them in the browser, and a module with zod schemas at its top level brings zod (14 KB
// gzip) into their first load.
export const LOGIN_ERROR = 'The user name or password is incorrect.';
export const FORGOT_PASSWORD_ERROR = 'The login_id or email address is incorrect.';
export const SESSION_EXPIRED_MESSAGE = 'ログイン有効切れです。再度ログインして下さい。';
