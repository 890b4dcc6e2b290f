import { NoticeAnswerSchema, NoticeListAnswerSchema, NoticeListQuerySchema, NoticeSchema } from '../notice-schemas';
import { defineCall } from './call';

export const listNotices = defineCall({
  id: 'listNotices',
  method: 'GET',
  path: '/on-reco/v1/notice',
  summary: 'The newest notices',
  access: { kind: 'user' },
  input: { in: 'query', schema: NoticeListQuerySchema },
  answer: { statuses: [200], json: NoticeListAnswerSchema, description: 'Newest first.' },
});

export const createNotice = defineCall({
  id: 'createNotice',
  method: 'POST',
  path: '/on-reco/v1/notice',
  summary: 'Post a notice',
  access: { kind: 'user', permission: 'createNotice' },
  input: { in: 'body', encoding: 'json-or-form', schema: NoticeSchema },
  answer: { statuses: [201], json: NoticeAnswerSchema, description: 'The notice created.' },
});
