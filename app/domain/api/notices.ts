import { NoticeAnswerSchema, NoticeListAnswerSchema, NoticeListQuerySchema, NoticeSchema } from '../notice-schemas';
import { body, defineCall, jsonAnswer, query } from './call';

export const listNotices = defineCall('listNotices', 'GET /on-reco/v1/notice', {
  summary: 'The newest notices',
  input: query(NoticeListQuerySchema),
  answer: jsonAnswer(NoticeListAnswerSchema, 'Newest first.'),
});

export const createNotice = defineCall('createNotice', 'POST /on-reco/v1/notice', {
  summary: 'Post a notice',
  access: { kind: 'user', permission: 'createNotice' },
  input: body(NoticeSchema),
  answer: jsonAnswer(NoticeAnswerSchema, 'The notice created.', [201]),
});
