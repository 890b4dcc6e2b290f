import { startOfJapanDay } from '~/domain/japan-time';
import { advanceAuditCheckpoint } from '~/models/audit.server';
import type { Job } from './job.server';

/** Japan time of day after which the day's full walk runs (minutes; 03:00, when the stores are quiet). */
const FULL_WALK_AFTER = 3 * 60;

/**
 * The audit chain's checkpoint (decision 132): every 5 minutes the rows written since the
 * checkpoint are walked and the checkpoint moves to the chain's end; once a day after 03:00 Japan
 * time (and when the checkpoint is missing or audit_log had updates/deletes) the whole chain is
 * walked, so a changed old row is found at the latest the next night. On demand:
 * `npx tsx scripts/audit-verify.ts`.
 */
export const auditChainJob: Job = {
  name: 'audit chain walk',
  schedule: '*/5 * * * *',
  runOnStart: true,
  run: async ({ db, now, log }) => {
    const dueFrom = new Date(startOfJapanDay(now).getTime() + FULL_WALK_AFTER * 60_000);
    const last = await db.selectFrom('audit_checkpoint').select('full_walk_at').where('chain', '=', 1).executeTakeFirst();
    const full = now >= dueFrom && (!last || last.full_walk_at < dueFrom);
    const result = await advanceAuditCheckpoint(db, now, full ? 'full' : 'since checkpoint');
    if (!result.ok) log.error({ broken: result.broken, full: result.full }, 'the audit chain is broken');
    else if (result.full) log.info({ checked: result.checked }, 'audit chain verified in full');
  },
};
