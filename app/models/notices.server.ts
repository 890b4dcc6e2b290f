import type { Notice } from '~/domain/notice-schemas';
import type { Db } from '~/db/db.server';
import { toCompactDateTime } from '~/domain/japan-time';
import { NOTICE_BAR_DAYS } from '~/domain/notice-schemas';
import { audit } from './audit.server';

function toNotice(row: { notice_id: number; title: string; content: string; created_at: Date }): Notice {
  return { notice_id: row.notice_id, title: row.title, content: row.content, created_datetime: toCompactDateTime(row.created_at) };
}

/** Newest first. */
export async function listNotices(db: Db, limit: number): Promise<Notice[]> {
  const rows = await db.selectFrom('notices').select(['notice_id', 'title', 'content', 'created_at']).orderBy('created_at', 'desc').orderBy('notice_id', 'desc').limit(limit).execute();
  return rows.map(toNotice);
}

/** The announcement bar: the newest notice, only if created within the last 7 days. */
export async function getLatestNotice(db: Db, now: Date): Promise<Notice | null> {
  const since = new Date(now.getTime() - NOTICE_BAR_DAYS * 24 * 3600_000);
  const [latest] = await listNotices(db, 1);
  return latest && latest.created_datetime >= toCompactDateTime(since) ? latest : null;
}

/** A notice every user sees on the top page: audited (issue 30), with its text, in the same transaction. */
export async function createNotice(db: Db, input: { title: string; content: string; createdBy: number }, now = new Date()): Promise<Notice> {
  const row = await db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('notices')
      .values({ title: input.title, content: input.content, created_by: input.createdBy, created_at: now })
      .returning(['notice_id', 'title', 'content', 'created_at'])
      .executeTakeFirstOrThrow();
    await audit(trx, { userId: input.createdBy, action: 'notice.create', targetType: 'notice', targetId: created.notice_id, details: { before: null, after: { title: created.title, content: created.content } }, at: now });
    return created;
  });
  return toNotice(row);
}
