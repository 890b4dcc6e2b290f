import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { migrationStatus } from '~/db/migrate.server';
import { listLaneHeartbeats } from '~/models/worker-heartbeats.server';

// /readyz's verdict (docs/decisions/211-health-and-readiness.md): the database answers, every
// migration of this version has run, and each worker lane has a worker that beat lately. A
// load balancer takes a web process out while it is red; the reasons say what an operator fixes.

/** The lanes the console needs; a worker of lane `all` does both. */
const NEEDED_LANES = ['alerts', 'reports'] as const;

/** A database that does not answer within this is as good as down for a probe. */
const DATABASE_TIMEOUT_MS = 2000;

export interface Readiness {
  ready: boolean;
  /** Why it is not ready, one line each; empty when ready. */
  reasons: string[];
}

export async function checkReadiness(db: Db, now: Date, workerStaleMs: number): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS} ms`)), DATABASE_TIMEOUT_MS)));
  try {
    return await Promise.race([checks(db, now, workerStaleMs), timeout]);
  } catch (error) {
    return { ready: false, reasons: [`database unreachable: ${error instanceof Error ? error.message : String(error)}`] };
  } finally {
    clearTimeout(timer);
  }
}

async function checks(db: Db, now: Date, workerStaleMs: number): Promise<Readiness> {
  await sql`select 1`.execute(db);
  const reasons: string[] = [];
  const pending = (await migrationStatus(db)).filter((migration) => migration.executedAt === null);
  if (pending.length > 0) reasons.push(`migrations pending: ${pending.map((migration) => migration.name).join(', ')}`);
  const lanes = await listLaneHeartbeats(db, now);
  for (const lane of NEEDED_LANES) {
    const beats = lanes.filter((row) => row.lane === lane || row.lane === 'all').map((row) => row.newestBeat?.getTime() ?? -Infinity);
    const newest = Math.max(-Infinity, ...beats);
    if (newest === -Infinity) reasons.push(`no ${lane} worker is running`);
    else if (now.getTime() - newest > workerStaleMs) reasons.push(`the ${lane} worker has not beaten for ${Math.round((now.getTime() - newest) / 1000)} s`);
  }
  return { ready: reasons.length === 0, reasons };
}
