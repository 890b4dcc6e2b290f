import { sql } from 'kysely';
import type { Db } from '~/db/db.server';

// The worker processes' heartbeats (migration 2026-11-28-10): read by /readyz and /metrics.

export async function recordWorkerBeat(db: Db, beat: { worker: string; lane: string; startedAt: Date; now: Date }): Promise<void> {
  await db
    .insertInto('worker_heartbeats')
    .values({ worker: beat.worker, lane: beat.lane, started_at: beat.startedAt, beat_at: beat.now, stopped_at: null })
    .onConflict((oc) => oc.column('worker').doUpdateSet({ beat_at: beat.now, stopped_at: null }))
    .execute();
}

export async function recordWorkerStopped(db: Db, worker: string, now: Date): Promise<void> {
  await db.updateTable('worker_heartbeats').set({ stopped_at: now }).where('worker', '=', worker).execute();
}

export async function deleteWorkerHeartbeatsBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('worker_heartbeats').where('beat_at', '<', before).execute();
}

export interface LaneHeartbeat {
  lane: string;
  /** The newest beat of a worker of the lane that has not stopped cleanly (null: none running). */
  newestBeat: Date | null;
  /** Worker processes of the lane started since `since` (a restart is a new process). */
  starts: number;
}

export async function listLaneHeartbeats(db: Db, since: Date): Promise<LaneHeartbeat[]> {
  const rows = await db
    .selectFrom('worker_heartbeats')
    .select((eb) => [
      'lane',
      sql<Date | null>`max(beat_at) filter (where stopped_at is null)`.as('newest_beat'),
      eb.fn.countAll<string>().filterWhere('started_at', '>=', since).as('starts'),
    ])
    .groupBy('lane')
    .orderBy('lane')
    .execute();
  return rows.map((row) => ({ lane: row.lane, newestBeat: row.newest_beat, starts: Number(row.starts) }));
}
