import { z } from 'zod';
import { INT4_MAX } from './input-schemas';

// GET /v1/users: one user's summary (the user master has its own paged call).

/** GET /v1/users: the user to read; without user_id, the caller's own record (the CLI's whoami). */
export const UserQuerySchema = z.object({ user_id: z.coerce.number({ invalid_type_error: 'user_id must be a number' }).int().positive().max(INT4_MAX).optional() });

export const UserSummarySchema = z.strictObject({
  user_id: z.number().int(),
  login_id: z.string(),
  user_name: z.string(),
  mailaddress1: z.string().nullable(),
});
