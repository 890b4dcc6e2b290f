// Walks the whole audit chain now and moves the worker's checkpoint (decision 132), e.g. after a
// restore or when an administrator wants a fresh full verification:  npx tsx scripts/audit-verify.ts
import { getDb } from '../app/db/db.server';
import { advanceAuditCheckpoint } from '../app/models/audit.server';

const db = getDb();
advanceAuditCheckpoint(db, new Date(), 'full')
  .then((result) => {
    console.log(JSON.stringify(result));
    process.exitCode = result.ok ? 0 : 1;
  })
  .finally(() => db.destroy());
