import { createNotice as createCall, listNotices as listCall } from '~/domain/api/notices';
import { apiAction, apiLoader } from '~/http/api-route.server';
import { createNotice, listNotices } from '~/models/notices.server';

// GET /v1/notice?limit=N: the newest notices. POST /v1/notice {title, content}: administrators only.
export const loader = apiLoader(listCall, ({ input, db }) => listNotices(db, input.limit));

export const action = apiAction(createCall, ({ viewer, input, db }) => createNotice(db, { ...input, createdBy: viewer.userId }));
