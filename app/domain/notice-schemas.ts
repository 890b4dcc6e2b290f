import { z } from 'zod';
import { dbText, nameText } from './input-schemas';
import { NOTICE_CONTENT_MAX, NOTICE_POPUP_STEP, NOTICE_TITLE_MAX } from './notices';

export const NOTICE_MESSAGES = {
  titleTooLong: 'タイトルは30文字以内で入力してください',
  contentTooLong: '本文は100文字以内で入力してください',
  required: '入力してください',
  success: 'お知らせを登録しました',
  failure: 'お知らせ登録に失敗しました',
} as const;

export { NOTICE_BAR_DAYS, NOTICE_CONTENT_MAX, NOTICE_POPUP_STEP, NOTICE_TITLE_MAX } from './notices';

// POST /v1/notice and the notice create form. Length counts characters as people see them.
const chars = (value: string) => [...value].length;

export const NoticeSchema = z.object({
  title: nameText().trim().min(1, NOTICE_MESSAGES.required).refine((v) => chars(v) <= NOTICE_TITLE_MAX, NOTICE_MESSAGES.titleTooLong),
  content: dbText().trim().min(1, NOTICE_MESSAGES.required).refine((v) => chars(v) <= NOTICE_CONTENT_MAX, NOTICE_MESSAGES.contentTooLong),
});

export const NoticeListQuerySchema = z.object({
  limit: z.coerce.number({ invalid_type_error: 'limit must be a number' }).int('limit must be a whole number').min(1).max(500).default(NOTICE_POPUP_STEP),
});

// ---- answers ----

/** A notice; created_datetime is YYYYMMDDHHmmss, Japan time. */
export const NoticeAnswerSchema = z.strictObject({
  notice_id: z.number().int(),
  title: z.string(),
  content: z.string(),
  created_datetime: z.string().regex(/^\d{14}$/),
});

export type Notice = z.infer<typeof NoticeAnswerSchema>;

/** GET /v1/notice: newest first. */
export const NoticeListAnswerSchema = z.array(NoticeAnswerSchema);
