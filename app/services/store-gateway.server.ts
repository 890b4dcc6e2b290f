import { randomInt } from 'node:crypto';
import type { Db } from '~/db/db.server';
import { can } from '~/domain/roles';
import {
  DUPLICATE_FIELD_MESSAGES,
  STORE_MESSAGES,
  type StoreSaveInput,
  type UniqueStoreField,
  pinCodeOf,
  pinEffectiveTime,
  type StoreInfo,
} from '~/domain/store-schemas';
import { canExchangeGateway, canHoldPin, canRemoveStore, isOpeningDateLocked, workingStateAfterGatewayChange } from '~/domain/working-state';
import { audit } from '~/models/audit.server';
import {
  type GatewayPin,
  checkStoreReferences,
  deletePin,
  duplicateFieldOf,
  endStoreAlerts,
  findDuplicateFields,
  gatewayHeldByAnotherStore,
  scopeStoreReferences,
  getStoreInfo,
  insertStore,
  lockStore,
  putPin,
  setStoreGateway,
  updateStoreMaster,
} from '~/models/store-management.server';
import type { Viewer } from '~/models/users.server';
import { forgetGatewayStore } from './gateway-tokens.server';

// The store management writes, each in one transaction on the locked store row, each with its
// audit_log row: PIN issue and reissue, gateway exchange, removal, and the store save of
// POST /v1/stores (create and update). Decisions: docs/decisions/060-store-management.md.

export type StoreWriteFailure =
  | { ok: false; reason: 'not_found'; description?: string }
  | { ok: false; reason: 'forbidden'; description?: string; fields?: Record<string, string> }
  | { ok: false; reason: 'invalid_state' | 'conflict'; description: string; message: string }
  | { ok: false; reason: 'duplicate'; fields: UniqueStoreField[]; message: string }
  | { ok: false; reason: 'invalid'; fields: Record<string, string>; message: string };

const notFound = { ok: false, reason: 'not_found' } as const;
const forbidden = { ok: false, reason: 'forbidden' } as const;
const duplicate = (fields: UniqueStoreField[]): StoreWriteFailure => ({ ok: false, reason: 'duplicate', fields, message: DUPLICATE_FIELD_MESSAGES[fields[0]] });

/** A unique violation that raced past the duplicate check becomes the same failure. */
async function catchDuplicates<T>(work: () => Promise<T>): Promise<T | StoreWriteFailure> {
  try {
    return await work();
  } catch (error) {
    const field = duplicateFieldOf(error);
    if (field) return duplicate([field]);
    throw error;
  }
}

/** What an audit row keeps of a store: the fields the store edit changes (no PIN). */
export function storeAuditView(
  info: Pick<StoreInfo, 'store_no' | 'store_name' | 'company_id' | 'storegroup_id' | 'prefecture_id' | 'address' | 'tel_no' | 'opening_date' | 'closing_date' | 'gateway_info' | 'working_state'> & {
    usergroup: { usergroup_id: number }[];
  } | null,
) {
  if (!info) return null;
  const { store_no, store_name, company_id, storegroup_id, prefecture_id, address, tel_no, opening_date, closing_date, gateway_info, working_state, usergroup } = info;
  return { store_no, store_name, company_id, storegroup_id, prefecture_id, address, tel_no, opening_date, closing_date, gateway_info, working_state, usergroup: usergroup.map((group) => group.usergroup_id) };
}

const newPin = (now: Date) => ({ pinCode: pinCodeOf(randomInt(0, 1_000_000)), effectiveTime: pinEffectiveTime(now) });

// ---- PIN ----

/** The issue and reissue buttons and POST /v1/stores/pin: a new PIN replaces the store's PIN, if any. Reads never issue one (no state-changing GET). */
export async function reissuePin(db: Db, viewer: Viewer, storeId: string, now: Date): Promise<{ ok: true; pin: GatewayPin } | StoreWriteFailure> {
  return db.transaction().execute(async (trx) => {
    const store = await lockStore(trx, viewer, storeId);
    if (!store?.visible) return notFound;
    if (!canHoldPin(store.workingState)) {
      return { ok: false, reason: 'invalid_state', description: 'A removed store has no PIN; exchange its gateway first.', message: '撤去された店舗にはPINを発行できません。先にゲートウェイを交換してください。' } as const;
    }
    const pin = await putPin(trx, storeId, newPin(now), now);
    await audit(trx, { userId: viewer.userId, action: 'gateway_pin.reissue', targetType: 'store', targetId: storeId, storeId, details: { effective_time: pin.effective_time }, at: now });
    return { ok: true, pin } as const;
  });
}

// ---- gateway exchange and removal ----

/**
 * Gateway exchange (000 §4, §5), in working states 1 and 2: the store's gateway becomes
 * `gatewayInfo`, the old gateway's token is revoked, and the store waits for the new
 * gateway's first communication (working state 0) until it pairs with the PIN and uploads.
 */
export async function exchangeGateway(db: Db, viewer: Viewer, storeId: string, gatewayInfo: string, now: Date): Promise<{ ok: true; workingState: number | null } | StoreWriteFailure> {
  return catchDuplicates(() =>
    db.transaction().execute(async (trx) => {
      const store = await lockStore(trx, viewer, storeId);
      if (!store?.visible) return notFound;
      if (!canExchangeGateway(store.workingState)) {
        return {
          ok: false,
          reason: 'invalid_state',
          description: 'A gateway can be exchanged only while the store is operating (1) or removed (2).',
          message: 'ゲートウェイ交換は稼働中または撤去の店舗でのみ行えます。',
        } as const;
      }
      if (await gatewayHeldByAnotherStore(trx, storeId, gatewayInfo)) return duplicate(['gateway_info']);
      const workingState = workingStateAfterGatewayChange(store.workingState, gatewayInfo);
      await setStoreGateway(trx, storeId, { gatewayInfo, workingState }, now);
      await audit(trx, {
        userId: viewer.userId,
        action: 'gateway.exchange',
        targetType: 'store',
        targetId: storeId,
        storeId,
        details: { before: { gateway_info: store.gatewayInfo, working_state: store.workingState }, after: { gateway_info: gatewayInfo, working_state: workingState } },
        at: now,
      });
      return { ok: true, workingState } as const;
    }),
  ).finally(() => forgetGatewayStore(storeId)); // the old gateway's token, once committed
}

/**
 * Removal (撤去), only for an operating store with a gateway: working state 2, the gateway's
 * token revoked and its PIN deleted, the store's open alerts ended without mail. The store
 * keeps its gateway_info (shown as the removed gateway), its sensors, measurements and
 * history. `gatewayInfo` '' means the store's gateway, whatever it is; otherwise it must be it.
 */
export async function removeGateway(db: Db, viewer: Viewer, storeId: string, gatewayInfo: string, now: Date): Promise<{ ok: true; gatewayInfo: string } | StoreWriteFailure> {
  const removal = db.transaction().execute(async (trx) => {
    const store = await lockStore(trx, viewer, storeId);
    if (!store?.visible) return notFound;
    if (gatewayInfo !== '' && gatewayInfo !== store.gatewayInfo) {
      return {
        ok: false,
        reason: 'conflict',
        description: 'gateway_info is not the store\'s current gateway.',
        message: 'ゲートウェイ情報が店舗の現在のゲートウェイと一致しません。画面を更新してください。',
      } as const;
    }
    if (!canRemoveStore(store.workingState, store.gatewayInfo)) {
      return {
        ok: false,
        reason: 'invalid_state',
        description: 'Only an operating store (working_state 1) with a gateway can be removed.',
        message: '撤去できるのは稼働中でゲートウェイ情報のある店舗だけです。',
      } as const;
    }
    const endedAlerts = await endStoreAlerts(trx, storeId, now);
    await setStoreGateway(trx, storeId, { gatewayInfo: store.gatewayInfo, workingState: 2, gatewayDown: false }, now);
    await deletePin(trx, storeId);
    await audit(trx, {
      userId: viewer.userId,
      action: 'store.removal',
      targetType: 'store',
      targetId: storeId,
      storeId,
      details: { gateway_info: store.gatewayInfo, ended_alerts: endedAlerts, before: { working_state: store.workingState }, after: { working_state: 2 } },
      at: now,
    });
    return { ok: true, gatewayInfo: store.gatewayInfo! } as const;
  });
  return removal.finally(() => forgetGatewayStore(storeId)); // the gateway's token, once committed
}

// ---- POST /v1/stores ----

/**
 * The referenced ids of a store save the viewer may not use (DESIGN.md "Scoped"): another
 * chain's store group, company or user group "does not exist" (404); a group the viewer sees but
 * may not assign, or a new store none of whose groups is the viewer's, is 403.
 */
async function refuseOutOfScope(trx: Db, viewer: Viewer, input: StoreSaveInput, creating: boolean): Promise<StoreWriteFailure | null> {
  const scope = await scopeStoreReferences(trx, viewer, input, creating);
  if (scope.hidden.length > 0) return { ok: false, reason: 'not_found', description: `No such ${scope.hidden.join(', ')}.` };
  if (scope.forbidden.length > 0) return { ok: false, reason: 'forbidden', description: `You may not assign ${scope.forbidden.join(', ')}: only your own groups or store-user groups of your stores.` };
  if (scope.noOwnGroup) return { ok: false, reason: 'forbidden', description: 'A store you create must be linked to one of your own user groups.' };
  if (scope.unremovable.length > 0) {
    const description = `usergroup: you may not remove ${scope.unremovable.join(', ')} from the store: you could not link it back (not your own group, nor a store-user group of another of your stores).`;
    return { ok: false, reason: 'forbidden', description, fields: { usergroup: STORE_MESSAGES.unremovableGroup } };
  }
  return null;
}

/** `store` is null when the saver cannot see the store they created (none of its user groups is theirs). */
export type StoreSaveResult = { ok: true; created: boolean; store: StoreInfo | null } | StoreWriteFailure;

/**
 * The shared store save (create and update; 000 §7, 001 §3/§5/§8). An existing store the
 * viewer may see is updated (masterMenu or storeManagement); otherwise a new store is created
 * (masterMenu). A store_id that exists but is not the viewer's is a duplicate, like any taken
 * value. A changed gateway_info is a gateway change: the old token is revoked and the working
 * state follows workingStateAfterGatewayChange. The opening date of an operating or removed
 * store cannot change (001 §2 Store edit). With `createOnly` (the console's 新規店舗作成, decision
 * 282) a store ID already in use is refused as a duplicate instead of updating that store.
 */
export async function saveStore(db: Db, viewer: Viewer, input: StoreSaveInput, now: Date, options: { createOnly?: boolean } = {}): Promise<StoreSaveResult> {
  const mayCreate = can(viewer.authority, 'masterMenu');
  const mayUpdate = mayCreate || can(viewer.authority, 'storeManagement');
  if (!mayUpdate) return forbidden;
  const saved = await catchDuplicates(() =>
    db.transaction().execute(async (trx): Promise<{ ok: true; created: boolean } | StoreWriteFailure> => {
      const existing = await lockStore(trx, viewer, input.store_id);
      if (existing && options.createOnly) return duplicate(['store_id']);
      const creating = !existing?.visible;
      if (creating && !mayCreate) return forbidden;
      const refusal = await refuseOutOfScope(trx, viewer, input, creating);
      if (refusal) return refusal;
      const references = await checkStoreReferences(trx, input);
      const fields = { ...references.fields };
      if (creating && input.gateway_info === null) fields.gateway_info = STORE_MESSAGES.required;
      if (existing && !creating && existing.openingDate !== input.opening_date && isOpeningDateLocked(existing.workingState)) {
        fields.opening_date = '稼働中または撤去の店舗の開店日は変更できません';
      }
      if (Object.keys(fields).length > 0) return { ok: false, reason: 'invalid', fields, message: STORE_MESSAGES.banner };
      const duplicates = await findDuplicateFields(trx, { storeId: input.store_id, storeNo: input.store_no, storeName: input.store_name, gatewayInfo: input.gateway_info, creating });
      if (duplicates.length > 0) return duplicate(duplicates);
      const companyId = references.companyId!;
      if (creating) {
        const workingState = workingStateAfterGatewayChange(null, input.gateway_info);
        await insertStore(trx, input, companyId, workingState, now);
        await audit(trx, { userId: viewer.userId, action: 'store.create', targetType: 'store', targetId: input.store_id, storeId: input.store_id, details: { before: null, after: storeAuditView(await getStoreInfo(trx, viewer, input.store_id)) }, at: now });
        return { ok: true, created: true };
      }
      const before = storeAuditView(await getStoreInfo(trx, viewer, input.store_id));
      await updateStoreMaster(trx, input, companyId, now);
      const gatewayChanged = existing.gatewayInfo !== input.gateway_info;
      let workingState = existing.workingState;
      if (gatewayChanged) {
        workingState = workingStateAfterGatewayChange(existing.workingState, input.gateway_info);
        await setStoreGateway(trx, input.store_id, { gatewayInfo: input.gateway_info, workingState }, now);
      }
      const after = storeAuditView(await getStoreInfo(trx, viewer, input.store_id));
      await audit(trx, { userId: viewer.userId, action: 'store.update', targetType: 'store', targetId: input.store_id, storeId: input.store_id, details: { before, after }, at: now });
      if (gatewayChanged) {
        await audit(trx, {
          userId: viewer.userId,
          action: input.gateway_info === null ? 'gateway.clear' : 'gateway.exchange',
          targetType: 'store',
          targetId: input.store_id,
          storeId: input.store_id,
          details: { before: { gateway_info: existing.gatewayInfo, working_state: existing.workingState }, after: { gateway_info: input.gateway_info, working_state: workingState }, via: 'store save' },
          at: now,
        });
      }
      return { ok: true, created: false };
    }),
  );
  if (!saved.ok) return saved;
  const store = await getStoreInfo(db, viewer, input.store_id);
  return { ok: true, created: saved.created, store };
}
