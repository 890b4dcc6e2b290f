import { z } from 'zod';
import { dbText } from './input-schemas';

export const NOTICE_MESSAGES = {
  titleTooLong: 'タイトルは30文字以内で入力してください',
  contentTooLong: '本文は100文字以内で入力してください',
  required: '入力してください',
  success: 'お知らせを登録しました',
  failure: 'お知らせ登録に失敗しました',
} as const;

export const NOTICE_TITLE_MAX = 30;
export const NOTICE_CONTENT_MAX = 100;
/** A notice shows on the dashboard's announcement bar for one week. */
export const NOTICE_BAR_DAYS = 7;
export const NOTICE_POPUP_STEP = 10;

// POST /v1/notice and the notice create form. Length counts characters as people see them.
const chars = (value: string) => [...value].length;

export const NoticeSchema = z.object({
  title: dbText().trim().min(1, NOTICE_MESSAGES.required).refine((v) => chars(v) <= NOTICE_TITLE_MAX, NOTICE_MESSAGES.titleTooLong),
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
