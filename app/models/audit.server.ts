import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { Database } from '~/db/schema';
import { AUDIT_BROKEN_LIMIT, type AuditAction, type AuditBreakReason, type AuditQuery, type AuditRow, type AuditVerification, auditPeriod, beforeAfterOf } from '~/domain/audit';
import { toCompactDateTime } from '~/domain/japan-time';
import { can } from '~/domain/roles';
import type { Viewer } from './users.server';

export interface AuditEntry {
  userId: number | null;
  /** What happened, as `target.verb`: 'store.create', 'gateway.exchange' … (each labelled in AUDIT_ACTION_LABELS). */
  action: AuditAction;
  targetType: string;
  targetId?: string | number | null;
  storeId?: string | null;
  /** A change as { before, after } (decision 133); an event as what happened. */
  details?: Record<string, unknown>;
  at?: Date;
}

/**
 * Appends rows to audit_log, in one statement. Call it with the transaction that made the
 * change, so the change and its record commit (or roll back) together. Never put secrets (PINs,
 * tokens, passwords) in details. This is the one writer of audit_log: audit_append() (migration
 * 2026-11-24-32) locks the chain head until the transaction ends, numbers and hashes the rows in
 * order and keeps the writer's name on each (decision 130).
 */
export async function audit(db: Db, entries: AuditEntry | readonly AuditEntry[]): Promise<void> {
  const rows = ([] as AuditEntry[]).concat(entries).map((entry) => ({
    at: (entry.at ?? new Date()).toISOString(),
    user_id: entry.userId,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
    store_id: entry.storeId ?? null,
    details: entry.details ?? {},
  }));
  if (rows.length > 0) await sql`select audit_append(${JSON.stringify(rows)}::jsonb)`.execute(db);
}

// ---- the list -------------------------------------------------------------------------------

function auditFilter(query: AuditQuery) {
  const { since, until } = auditPeriod(query);
  return (eb: ExpressionBuilder<Database, 'audit_log'>) => {
    const conditions = [];
    if (since) conditions.push(eb('audit_log.at', '>=', since));
    if (until) conditions.push(eb('audit_log.at', '<', until));
    if (query.user_id !== undefined) conditions.push(eb('audit_log.user_id', '=', query.user_id));
    if (query.store_id !== undefined) conditions.push(eb('audit_log.store_id', '=', query.store_id));
    if (query.kind !== undefined) {
      const prefix = `${query.kind.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`;
      conditions.push(eb.or([eb('audit_log.target_type', '=', query.kind), eb('audit_log.action', 'like', prefix)]));
    }
    return eb.and(conditions);
  };
}

/** Administrators read the whole trail (they see every store); anyone else reads nothing (the routes answer 403 first). */
const readsTrail = (viewer: Viewer) => can(viewer.authority, 'auditLog');

/** One page of the trail, newest first, and how many rows the filters match. */
export async function listAuditRows(db: Db, viewer: Viewer, query: AuditQuery): Promise<{ allCount: number; rows: AuditRow[] }> {
  if (!readsTrail(viewer)) return { allCount: 0, rows: [] };
  const where = auditFilter(query);
  const [count, rows] = await Promise.all([
    db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).where(where).executeTakeFirstOrThrow(),
    db
      .selectFrom('audit_log')
      .select(['audit_id', 'at', 'user_id', 'user_name', 'action', 'target_type', 'target_id', 'store_id', 'details', 'row_hash'])
      .where(where)
      .orderBy('audit_id', 'desc')
      .limit(query.page_count)
      .offset((query.page_no - 1) * query.page_count)
      .execute(),
  ]);
  return {
    allCount: Number(count.n),
    rows: rows.map((row) => ({
      audit_id: Number(row.audit_id),
      at: toCompactDateTime(row.at),
      user_id: row.user_id,
      user_name: row.user_name,
      action: row.action,
      target_type: row.target_type,
      target_id: row.target_id,
      store_id: row.store_id,
      ...beforeAfterOf(row.details),
      row_hash: row.row_hash,
    })),
  };
}

/** The people and stores the trail names, for the page's filters (what was written, deleted users included). */
export async function listAuditFilterChoices(db: Db, viewer: Viewer): Promise<{ users: { id: number; name: string }[]; stores: string[] }> {
  if (!readsTrail(viewer)) return { users: [], stores: [] };
  const [users, stores] = await Promise.all([
    db
      .selectFrom('audit_log')
      .select(['user_id', sql<string>`max(user_name)`.as('name')])
      .where('user_id', 'is not', null)
      .groupBy('user_id')
      .orderBy('user_id')
      .limit(500)
      .execute(),
    db.selectFrom('audit_log').select('store_id').distinct().where('store_id', 'is not', null).orderBy('store_id').limit(1000).execute(),
  ]);
  return { users: users.map((row) => ({ id: row.user_id!, name: row.name ?? `#${row.user_id}` })), stores: stores.map((row) => row.store_id!) };
}

// ---- the verification -------------------------------------------------------------------------

interface ChunkRow {
  audit_id: number;
  previous_id: number | null;
  changed: boolean;
  foreign_row: boolean;
  unlinked: boolean;
  skips_one: boolean;
}

/**
 * The broken rows of ids [from, to] in one pass: each row's hash recomputed from its stored
 * content (changed), its prev_hash against the row before's row_hash (unlinked) and the row two
 * before's (an insertion: the next row links over the foreign one). The window starts two rows
 * before `from`, so chunks meet without a seam; before the first row comes the genesis hash.
 */
const chunkQuery = (from: number, to: number) => sql<ChunkRow>`
  select audit_id, previous_id, changed, foreign_row, unlinked, coalesce(prev_hash = two_back, false) as skips_one from (
    select audit_id, prev_hash,
      row_hash is null or row_hash <> audit_row_hash(audit_id, at, user_id, user_name, action, target_type, target_id, store_id, details, prev_hash) as changed,
      row_hash is null and prev_hash is null as foreign_row,
      prev_hash is distinct from lag(row_hash, 1, repeat('0', 64)) over w as unlinked,
      lag(row_hash, 2, repeat('0', 64)) over w as two_back,
      lag(audit_id) over w as previous_id
    from audit_log
    where audit_id <= ${to}
      and audit_id >= coalesce((select audit_id from audit_log where audit_id < ${from} order by audit_id desc offset 1 limit 1), (select min(audit_id) from audit_log))
    window w as (order by audit_id)
  ) t
  where audit_id >= ${from} and (changed or unlinked)
  order by audit_id limit ${AUDIT_BROKEN_LIMIT + 1}`;

/** How many chunks a walk is cut into, each on its own connection (PostgreSQL runs them side by side). */
const VERIFY_CHUNKS = 2;
const SNAPSHOT_ID = /^[0-9A-F-]+$/i;

type Broken = { audit_id: number; reason: AuditBreakReason };

interface Walk {
  checked: number;
  lastId: number | null;
  lastHash: string | null;
  broken: Broken[];
  /** audit_log's update + delete counter (pg_stat_user_tables) in the walk's snapshot. */
  changes: number;
}

const GENESIS = '0'.repeat(64);

/** Rows of audit_log updated or deleted since the statistics began: audit_append only inserts, so any change of this number is someone changing or deleting rows. */
const tableChanges = (db: Db) =>
  sql<{ n: string }>`select coalesce((select n_tup_upd + n_tup_del from pg_stat_user_tables where relid = 'audit_log'::regclass), 0) as n`.execute(db).then(({ rows }) => Number(rows[0].n));

/**
 * Walks the chain from row `from` (the whole chain when null) to its end (decision 131): every
 * row's hash recomputed from its stored content, every link to the row before, and the last row
 * against the chain head. All in SQL: PostgreSQL streams the rows and only the broken ones come
 * back. The walk is cut into id ranges run on separate connections that share one exported
 * snapshot, so they see the same chain. From a checkpoint, the row `from` must still be there
 * with the hash the checkpoint saw (`seam`).
 */
async function walkAuditChain(db: Db, from: number | null, seam?: { id: number; hash: string }): Promise<Walk> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const { rows: [snapshot] } = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
      const [bounds, head, changes, seamRow] = await Promise.all([
        trx
          .selectFrom('audit_log')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('audit_id').as('first_id'), eb.fn.max('audit_id').as('last_id')])
          .$if(from !== null, (q) => q.where('audit_id', '>=', from!))
          .executeTakeFirstOrThrow(),
        trx.selectFrom('audit_chain_head').select(['last_id', 'last_hash']).where('chain', '=', 1).executeTakeFirst(),
        tableChanges(trx),
        seam && seam.id > 0 ? trx.selectFrom('audit_log').select('row_hash').where('audit_id', '=', seam.id).executeTakeFirst() : Promise.resolve(null),
      ]);
      // One reason per row (the first found), and the end of the chain on its own.
      const broken = new Map<string, Broken>();
      const mark = (auditId: number, reason: AuditBreakReason) => {
        const key = reason === 'rows_deleted_after' ? `${auditId}:after` : String(auditId);
        if (!broken.has(key)) broken.set(key, { audit_id: auditId, reason });
      };
      if (seam && seam.id > 0) {
        if (seamRow === undefined) mark(seam.id, 'rows_deleted_before');
        else if (seamRow && seamRow.row_hash !== seam.hash) mark(seam.id, 'content_changed');
      }
      const firstId = bounds.first_id === null ? null : Number(bounds.first_id);
      const lastId = bounds.last_id === null ? null : Number(bounds.last_id);
      let lastHash: string | null = null;
      if (firstId !== null && lastId !== null) {
        if (!SNAPSHOT_ID.test(snapshot.id)) throw new Error(`unexpected snapshot id ${snapshot.id}`);
        const step = Math.ceil((lastId - firstId + 1) / VERIFY_CHUNKS);
        const ranges = Array.from({ length: VERIFY_CHUNKS }, (_, i) => [firstId + i * step, Math.min(lastId, firstId + (i + 1) * step - 1)] as const).filter(([a, b]) => a <= b);
        const chunks = await Promise.all(
          ranges.map(([a, b], i) =>
            i === 0
              ? chunkQuery(a, b).execute(trx)
              : db
                  .transaction()
                  .setIsolationLevel('repeatable read')
                  .setAccessMode('read only')
                  .execute(async (other) => {
                    await sql.raw(`set transaction snapshot '${snapshot.id}'`).execute(other);
                    return chunkQuery(a, b).execute(other);
                  }),
          ),
        );
        for (const row of chunks.flatMap((chunk) => chunk.rows)) {
          const id = Number(row.audit_id);
          if (row.changed) mark(id, row.foreign_row ? 'row_inserted' : 'content_changed');
          // A foreign row between two rows of the chain: the next row links over it to the one before.
          if (row.unlinked && row.skips_one && row.previous_id !== null) mark(Number(row.previous_id), 'row_inserted');
          else if (row.unlinked) mark(id, 'rows_deleted_before');
        }
        lastHash = (await trx.selectFrom('audit_log').select('row_hash').where('audit_id', '=', lastId).executeTakeFirst())?.row_hash ?? null;
      }
      if (head && lastId !== null) {
        const headId = Number(head.last_id);
        if (headId > lastId) mark(lastId, 'rows_deleted_after');
        else if (headId < lastId) {
          const foreign = await trx.selectFrom('audit_log').select('audit_id').where('audit_id', '>', headId).orderBy('audit_id').limit(AUDIT_BROKEN_LIMIT).execute();
          for (const row of foreign) mark(Number(row.audit_id), 'row_inserted');
        } else if (lastHash !== head.last_hash) mark(lastId, 'content_changed');
      } else if (head && lastId === null && Number(head.last_id) > (seam?.id ?? 0)) {
        mark(Number(head.last_id), 'rows_deleted_after');
      }
      const list = [...broken.values()].sort((a, b) => a.audit_id - b.audit_id).slice(0, AUDIT_BROKEN_LIMIT);
      return { checked: Number(bounds.n), lastId, lastHash, broken: list, changes };
    });
}

const answer = (checked: number, broken: readonly Broken[]): AuditVerification => {
  const list = [...new Map(broken.map((row) => [`${row.audit_id}:${row.reason}`, row])).values()].sort((a, b) => a.audit_id - b.audit_id).slice(0, AUDIT_BROKEN_LIMIT);
  return { ok: list.length === 0, checked, broken: list };
};

/** Walks the whole chain now and names the first broken rows in chain order. */
export async function verifyAuditChain(db: Db): Promise<AuditVerification> {
  const walk = await walkAuditChain(db, null);
  return answer(walk.checked, walk.broken);
}

/**
 * The verification a page or a call shows (decision 132), without walking a million rows on
 * every request: what the worker's last walk found up to its checkpoint, plus a walk of the rows
 * after it (and of the checkpoint's row itself, which must still carry the hash it had). When
 * audit_log's update/delete counter moved since the checkpoint, or there is no checkpoint yet,
 * the whole chain is walked now. Read only: the checkpoint moves only in the worker.
 */
export async function auditChainVerification(db: Db): Promise<AuditVerification> {
  const checkpoint = await db.selectFrom('audit_checkpoint').selectAll().where('chain', '=', 1).executeTakeFirst();
  if (!checkpoint || (await tableChanges(db)) !== Number(checkpoint.changes)) return verifyAuditChain(db);
  const seamId = Number(checkpoint.last_id);
  const walk = await walkAuditChain(db, seamId, { id: seamId, hash: checkpoint.last_hash });
  const before = checkpoint.broken as Broken[];
  return answer(Number(checkpoint.checked) + walk.checked - (seamId > 0 && walk.lastId !== null ? 1 : 0), [...before, ...walk.broken]);
}

/**
 * The worker's walk (app/jobs/audit-chain.server.ts): in full (nightly, on start, on demand) or
 * from the checkpoint on; either way the checkpoint then stands at the chain's last row with what
 * was found broken. A changed update/delete counter makes it a full walk.
 */
export async function advanceAuditCheckpoint(db: Db, now: Date, mode: 'full' | 'since checkpoint'): Promise<AuditVerification & { full: boolean }> {
  const checkpoint = await db.selectFrom('audit_checkpoint').selectAll().where('chain', '=', 1).executeTakeFirst();
  const full = mode === 'full' || !checkpoint || (await tableChanges(db)) !== Number(checkpoint.changes);
  const seamId = checkpoint ? Number(checkpoint.last_id) : 0;
  const walk = full ? await walkAuditChain(db, null) : await walkAuditChain(db, seamId, { id: seamId, hash: checkpoint!.last_hash });
  const checked = full ? walk.checked : Number(checkpoint!.checked) + walk.checked - (seamId > 0 && walk.lastId !== null ? 1 : 0);
  const result = answer(checked, full ? walk.broken : [...(checkpoint!.broken as Broken[]), ...walk.broken]);
  const values = {
    last_id: walk.lastId ?? seamId,
    last_hash: walk.lastHash ?? (full ? GENESIS : checkpoint!.last_hash),
    checked: result.checked,
    broken: JSON.stringify(result.broken),
    changes: walk.changes,
    walked_at: now,
    full_walk_at: full ? now : checkpoint!.full_walk_at,
  };
  await db
    .insertInto('audit_checkpoint')
    .values({ chain: 1, ...values })
    .onConflict((oc) => oc.column('chain').doUpdateSet(values))
    .execute();
  return { ...result, full };
}
