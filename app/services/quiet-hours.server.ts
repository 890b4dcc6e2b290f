import type { Db } from '~/db/db.server';
import type { QuietHours } from '~/domain/quiet-hours';
import { audit } from '~/models/audit.server';
import { getQuietHours, setQuietHours } from '~/models/users.server';
import type { Viewer } from '~/models/users.server';

export const QUIET_HOURS_AUDIT_ACTION = 'user.quiet_hours';

/** Sets (or clears, with null) the viewer's own quiet hours, with an audit row of before and after. */
export async function saveOwnQuietHours(db: Db, viewer: Viewer, quiet: QuietHours | null, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await getQuietHours(trx, viewer.userId);
    await setQuietHours(trx, viewer.userId, quiet);
    await audit(trx, { at: now, userId: viewer.userId, action: QUIET_HOURS_AUDIT_ACTION, targetType: 'user', targetId: viewer.userId, details: { before, after: quiet } });
  });
}
