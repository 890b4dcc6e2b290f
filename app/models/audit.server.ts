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
 * Appends one row to audit_log. Call it with the transaction that made the change, so the
 * change and its record commit (or roll back) together. Never put secrets (PINs, tokens,
 * passwords) in details.
 */
export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: entry.at ?? new Date(),
      user_id: entry.userId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
      store_id: entry.storeId ?? null,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}
