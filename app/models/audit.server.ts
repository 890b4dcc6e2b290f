import type { Db } from '~/db/db.server';

export interface AuditEntry {
  userId: number | null;
  /** What happened, as `target.verb`: 'store.create', 'gateway.exchange', 'gateway_pin.reissue' … */
  action: string;
  targetType: string;
  targetId?: string | number | null;
  storeId?: string | null;
  details?: Record<string, unknown>;
  at?: Date;
}

/**
 * Appends rows to audit_log, in one statement. Call it with the transaction that made the
 * change, so the change and its record commit (or roll back) together. Never put secrets (PINs,
 * tokens, passwords) in details. This is the one writer of audit_log.
 */
export async function audit(db: Db, entries: AuditEntry | readonly AuditEntry[]): Promise<void> {
  const rows = ([] as AuditEntry[]).concat(entries).map((entry) => ({
    at: entry.at ?? new Date(),
    user_id: entry.userId,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
    store_id: entry.storeId ?? null,
    details: JSON.stringify(entry.details ?? {}),
  }));
  if (rows.length > 0) await db.insertInto('audit_log').values(rows).execute();
}
