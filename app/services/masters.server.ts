import type { Db } from '~/db/db.server';
import type { AuditAction } from '~/domain/audit';
import type { CompanyRow, CompanySave, InUseReason, StoregroupSave, UsergroupRow, UsergroupSave } from '~/domain/master-schemas';
import { MASTER_MESSAGES } from '~/domain/master-schemas';
import { audit } from '~/models/audit.server';
import {
  authorityExists,
  companyUse,
  deleteCompanyRow,
  deleteStoregroupRow,
  deleteUsergroupRow,
  getCompany,
  getStoregroup,
  hasValidAdministrator,
  insertCompany,
  insertStoregroup,
  insertUsergroup,
  lockUsergroup,
  storegroupHasStores,
  updateCompany,
  updateStoregroup,
  updateUsergroup,
  usergroupUse,
} from '~/models/masters.server';
import type { Viewer } from '~/models/users.server';

// The system masters' writes (001 §2/§7; システム管理, administrators): each in one transaction on
// the locked row, with its audit row { before, after }. Deleting what is in use, or a change that
// would strand stores or leave no administrator, is refused with the reason and changes nothing.
// Decisions: docs/decisions/125-system-masters.md … 129.

export type MasterWriteFailure =
  | { ok: false; reason: 'not_found'; description: string }
  | { ok: false; reason: 'duplicate'; field: string }
  | { ok: false; reason: 'in_use'; why: InUseReason }
  | { ok: false; reason: 'invalid'; fields: Record<string, string> };

export type Saved<T> = { ok: true; created: boolean; row: T } | MasterWriteFailure;
export type Deleted = { ok: true } | MasterWriteFailure;

const notFound = (description: string) => ({ ok: false, reason: 'not_found', description }) as const;
const inUse = (why: InUseReason) => ({ ok: false, reason: 'in_use', why }) as const;

/** A rollback that carries its failure out of the transaction. */
class Refused extends Error {
  constructor(readonly failure: MasterWriteFailure) {
    super(failure.reason);
  }
}

async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T | MasterWriteFailure>): Promise<T | MasterWriteFailure> {
  try {
    return await db.transaction().execute(async (trx) => {
      const result = await work(trx);
      if (typeof result === 'object' && result !== null && 'ok' in result && result.ok === false) throw new Refused(result as MasterWriteFailure);
      return result;
    });
  } catch (error) {
    if (error instanceof Refused) return error.failure;
    throw error;
  }
}

const entry = (viewer: Viewer, now: Date, action: AuditAction, targetType: string, targetId: string | number, before: unknown, after: unknown) => ({
  userId: viewer.userId,
  at: now,
  action,
  targetType,
  targetId,
  details: { before, after },
});

// ---- user groups ----

export function saveUsergroup(db: Db, viewer: Viewer, input: UsergroupSave, now: Date): Promise<Saved<UsergroupRow>> {
  return inTransaction(db, async (trx) => {
    if (!(await authorityExists(trx, input.usergroup_authority))) return { ok: false, reason: 'invalid', fields: { usergroup_authority: MASTER_MESSAGES.choose } } as const;
    const values = { usergroup_name: input.usergroup_name, usergroup_authority: input.usergroup_authority };
    if (input.usergroup_id === undefined) {
      const row = await insertUsergroup(trx, values);
      await audit(trx, entry(viewer, now, 'usergroup.create', 'usergroup', row.usergroup_id, null, row));
      return { ok: true, created: true, row } as const;
    }
    const before = await lockUsergroup(trx, input.usergroup_id);
    if (!before) return notFound(`User group ${input.usergroup_id} was not found.`);
    const row = await updateUsergroup(trx, input.usergroup_id, values, now);
    // A group's authority change takes effect at once: it may not leave the chain without an administrator.
    if (before.usergroup_authority !== row.usergroup_authority && !(await hasValidAdministrator(trx))) return inUse('last_administrator');
    await audit(trx, entry(viewer, now, 'usergroup.update', 'usergroup', row.usergroup_id, before, row));
    return { ok: true, created: false, row } as const;
  });
}

export function deleteUsergroup(db: Db, viewer: Viewer, usergroupId: number, now: Date): Promise<Deleted> {
  return inTransaction(db, async (trx) => {
    // The row lock makes a new member or store link wait for this transaction (their key-share lock).
    const before = await lockUsergroup(trx, usergroupId);
    if (!before) return notFound(`User group ${usergroupId} was not found.`);
    const use = await usergroupUse(trx, usergroupId);
    if (use.members) return inUse('usergroup_has_members');
    if (use.stores) return inUse('usergroup_has_stores');
    await deleteUsergroupRow(trx, usergroupId);
    await audit(trx, entry(viewer, now, 'usergroup.delete', 'usergroup', usergroupId, before, null));
    return { ok: true } as const;
  });
}

// ---- companies ----

export function saveCompany(db: Db, viewer: Viewer, input: CompanySave, now: Date): Promise<Saved<CompanyRow>> {
  return inTransaction(db, async (trx) => {
    const values = { company_id: input.company_id, company_name: input.company_name };
    const before = await getCompany(trx, input.company_id, true);
    if (before && input.mode === 'create') return { ok: false, reason: 'duplicate', field: 'company_id' } as const;
    if (!before) {
      if (input.mode === 'update') return notFound(`Company ${input.company_id} was not found.`);
      const row = await insertCompany(trx, values);
      // Created by another request since the read: the same duplicate.
      if (!row) return { ok: false, reason: 'duplicate', field: 'company_id' } as const;
      await audit(trx, entry(viewer, now, 'company.create', 'company', row.company_id, null, row));
      return { ok: true, created: true, row } as const;
    }
    const row = await updateCompany(trx, values, now);
    await audit(trx, entry(viewer, now, 'company.update', 'company', row.company_id, before, row));
    return { ok: true, created: false, row } as const;
  });
}

export function deleteCompany(db: Db, viewer: Viewer, companyId: string, now: Date): Promise<Deleted> {
  return inTransaction(db, async (trx) => {
    const before = await getCompany(trx, companyId, true);
    if (!before) return notFound(`Company ${companyId} was not found.`);
    const use = await companyUse(trx, companyId);
    if (use.stores) return inUse('company_has_stores');
    if (use.storegroups) return inUse('company_has_storegroups');
    await deleteCompanyRow(trx, companyId);
    await audit(trx, entry(viewer, now, 'company.delete', 'company', companyId, before, null));
    return { ok: true } as const;
  });
}

// ---- store groups ----

type StoregroupSaved = { storegroup_id: string; storegroup_name: string; company_id: string };

export function saveStoregroup(db: Db, viewer: Viewer, input: StoregroupSave, now: Date): Promise<Saved<StoregroupSaved>> {
  return inTransaction(db, async (trx) => {
    const values = { storegroup_id: input.storegroup_id, company_id: input.company_id, storegroup_name: input.storegroup_name };
    // The company is locked too: a company delete cannot pass between this check and the write.
    if (!(await getCompany(trx, input.company_id, true))) return { ok: false, reason: 'invalid', fields: { company_id: MASTER_MESSAGES.choose } } as const;
    const found = await getStoregroup(trx, input.storegroup_id, true);
    if (found && input.mode === 'create') return { ok: false, reason: 'duplicate', field: 'storegroup_id' } as const;
    if (!found) {
      if (input.mode === 'update') return notFound(`Store group ${input.storegroup_id} was not found.`);
      const row = await insertStoregroup(trx, values);
      if (!row) return { ok: false, reason: 'duplicate', field: 'storegroup_id' } as const;
      await audit(trx, entry(viewer, now, 'storegroup.create', 'storegroup', row.storegroup_id, null, row));
      return { ok: true, created: true, row } as const;
    }
    const { company_name: _name, ...before } = found;
    // A store carries its company and store group side by side: they may not part.
    if (before.company_id !== values.company_id && (await storegroupHasStores(trx, values.storegroup_id))) return inUse('storegroup_company_has_stores');
    const row = await updateStoregroup(trx, values, now);
    await audit(trx, entry(viewer, now, 'storegroup.update', 'storegroup', row.storegroup_id, before, row));
    return { ok: true, created: false, row } as const;
  });
}

export function deleteStoregroup(db: Db, viewer: Viewer, storegroupId: string, now: Date): Promise<Deleted> {
  return inTransaction(db, async (trx) => {
    const found = await getStoregroup(trx, storegroupId, true);
    if (!found) return notFound(`Store group ${storegroupId} was not found.`);
    if (await storegroupHasStores(trx, storegroupId)) return inUse('storegroup_has_stores');
    await deleteStoregroupRow(trx, storegroupId);
    const { company_name: _name, ...before } = found;
    await audit(trx, entry(viewer, now, 'storegroup.delete', 'storegroup', storegroupId, before, null));
    return { ok: true } as const;
  });
}
