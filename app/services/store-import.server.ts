import type { Db } from '~/db/db.server';
import { can } from '~/domain/roles';
import { SENSOR_MESSAGES, type SensorSave } from '~/domain/sensor-settings';
import { IMPORT_MESSAGES, type ImportAnswer, type ImportedStore, type SensorImportRequest, type StoreImportRequest, importAnswerOf } from '~/domain/store-import';
import { DUPLICATE_FIELD_MESSAGES, STORE_MESSAGES, type StoreSaveInput } from '~/domain/store-schemas';
import { workingStateAfterGatewayChange } from '~/domain/working-state';
import { type AuditEntry, audit } from '~/models/audit.server';
import { insertSensors, listMeasureTargetKinds, serialsOfStores } from '~/models/sensor-settings.server';
import { type NewStore, checkStoreReferencesOf, findDuplicateFieldsOf, insertStores, usergroupIdsByName } from '~/models/store-management.server';
import type { Viewer } from '~/models/users.server';
import { audited as sensorAuditView } from './sensor-settings.server';
import { storeAuditView } from './store-gateway.server';

// The store and sensor import (decision 153): everything is checked before anything is written,
// in one transaction, against the same rules as the store save and the sensor registration, and
// written in a few statements over arrays (never a query per row). What exists (a store_id, a
// serial in its store) is left as it is: a second import of the same file creates nothing.

export type ImportResult = { ok: true; answer: ImportAnswer } | { ok: false; reason: 'forbidden' | 'conflict' } | { ok: false; reason: 'invalid'; fields: Record<string, string> };

/** Field errors keyed by the input's place (stores.3.store_no, stores.3.sensors.2.lower_limit). */
type Fields = Record<string, string>;

interface StorePlan {
  storeId: string;
  created: boolean;
  sensors: SensorSave[];
  /** The input's place of the store (`stores.3`; '' for a sensor import). */
  at: string;
}

const placeOf = (at: string, field: string) => (at ? `${at}.${field}` : field);

/** The user groups named by each store, added to its ids; an unknown or shared name is a field error. */
async function resolveUsergroups(trx: Db, request: StoreImportRequest, fields: Fields): Promise<StoreSaveInput[]> {
  const byName = await usergroupIdsByName(trx, request.stores.flatMap((entry) => entry.usergroup_names));
  return request.stores.map((entry, index) => {
    const ids = [...entry.store.usergroup];
    entry.usergroup_names.forEach((name, nameIndex) => {
      const found = byName.get(name) ?? [];
      if (found.length === 1) ids.push(found[0]);
      else fields[`stores.${index}.usergroup_names.${nameIndex}`] = found.length === 0 ? IMPORT_MESSAGES.unknownGroup(name) : IMPORT_MESSAGES.ambiguousGroup(name);
    });
    return { ...entry.store, usergroup: [...new Set(ids)] };
  });
}

/**
 * Which stores exist (left as they are) and what a new store breaks: a unique value another store
 * holds, a reference that does not exist, a missing gateway (the store save's rules, in bulk).
 */
async function planStores(trx: Db, stores: StoreSaveInput[], fields: Fields): Promise<{ existing: Set<string>; created: NewStore[] }> {
  const duplicates = await findDuplicateFieldsOf(
    trx,
    stores.map((store) => ({ storeId: store.store_id, storeNo: store.store_no, storeName: store.store_name, gatewayInfo: store.gateway_info, creating: true })),
  );
  const existing = new Set(stores.filter((_, index) => duplicates[index].includes('store_id')).map((store) => store.store_id));
  const fresh = stores.map((store, index) => ({ store, index })).filter(({ store }) => !existing.has(store.store_id));
  const references = await checkStoreReferencesOf(trx, fresh.map(({ store }) => store));
  const created: NewStore[] = [];
  fresh.forEach(({ store, index }, freshIndex) => {
    const problems: Fields = { ...references[freshIndex].fields };
    for (const field of duplicates[index]) problems[field] = DUPLICATE_FIELD_MESSAGES[field];
    if (store.gateway_info === null) problems.gateway_info = STORE_MESSAGES.required;
    for (const [field, message] of Object.entries(problems)) fields[`stores.${index}.${field}`] = message;
    created.push({ input: store, companyId: references[freshIndex].companyId!, workingState: workingStateAfterGatewayChange(null, store.gateway_info) });
  });
  return { existing, created };
}

/** The sensors to register: a serial the store has is left as it is; a furniture kind must exist. */
async function planSensors(trx: Db, plans: StorePlan[], fields: Fields): Promise<{ plan: StorePlan; fresh: SensorSave[]; existing: number }[]> {
  const [serials, kinds] = await Promise.all([serialsOfStores(trx, plans.filter((plan) => !plan.created).map((plan) => plan.storeId)), listMeasureTargetKinds(trx)]);
  const knownKinds = new Set(kinds.map((kind) => kind.measure_target_equipment_kind_id));
  return plans.map((plan) => {
    const has = serials.get(plan.storeId) ?? new Set<string>();
    plan.sensors.forEach((sensor, index) => {
      if (sensor.measure_target_equipment_kind_id !== null && !knownKinds.has(sensor.measure_target_equipment_kind_id)) {
        fields[placeOf(plan.at, `sensors.${index}.measure_target_equipment_kind_id`)] = SENSOR_MESSAGES.choose;
      }
    });
    const fresh = plan.sensors.filter((sensor) => !has.has(sensor.serial_no!));
    return { plan, fresh, existing: plan.sensors.length - fresh.length };
  });
}

/**
 * Rows one statement of the import writes at most. A statement's parameters (and an audit batch's
 * JSON) are built on the event loop: 20,000 sensors at once held it for half a second; batches
 * give it back at each round trip (decision 279). Still one transaction: all or nothing.
 */
const WRITE_BATCH = 5_000;

const batchesOf = <T>(items: readonly T[]): T[][] => Array.from({ length: Math.ceil(items.length / WRITE_BATCH) }, (_, n) => items.slice(n * WRITE_BATCH, (n + 1) * WRITE_BATCH));

/** Writes the new stores and sensors with their audit rows (as the store save and the sensor registration write them). */
async function write(trx: Db, viewer: Viewer, stores: NewStore[], sensors: SensorSave[], now: Date): Promise<void> {
  await insertStores(trx, stores, now);
  const created: Awaited<ReturnType<typeof insertSensors>> = [];
  for (const batch of batchesOf(sensors)) created.push(...(await insertSensors(trx, batch.map((sensor) => ({ ...sensor, serial_no: sensor.serial_no! })), now)));
  const storeEntry = ({ input, companyId, workingState }: NewStore): AuditEntry => ({
    userId: viewer.userId,
    action: 'store.create',
    targetType: 'store',
    targetId: input.store_id,
    storeId: input.store_id,
    details: {
      before: null,
      after: storeAuditView({
        ...input,
        company_id: companyId,
        opening_date: input.opening_date.replaceAll('-', ''),
        closing_date: input.closing_date?.replaceAll('-', '') ?? null,
        working_state: workingState,
        usergroup: input.usergroup.map((usergroupId) => ({ usergroup_id: usergroupId })),
      }),
      via: 'import',
    },
    at: now,
  });
  const idOf = new Map(created.map((row) => [`${row.store_id}\n${row.serial_no}`, row.equipment_id]));
  const sensorEntry = (sensor: SensorSave): AuditEntry => ({
    userId: viewer.userId,
    action: 'sensor.create',
    targetType: 'sensor',
    targetId: idOf.get(`${sensor.store_id}\n${sensor.serial_no}`),
    storeId: sensor.store_id,
    details: { before: null, after: { serial_no: sensor.serial_no, ...sensorAuditView({ ...sensor }) }, via: 'import' },
    at: now,
  });
  for (const batch of batchesOf(stores)) await audit(trx, batch.map(storeEntry));
  for (const batch of batchesOf(sensors)) await audit(trx, batch.map(sensorEntry));
}

/** Plans, and unless it is a dry run writes, in one transaction; a unique value taken meanwhile is a conflict, nothing written. */
async function runImport(db: Db, viewer: Viewer, dryRun: boolean, plan: (trx: Db, fields: Fields) => Promise<{ stores: NewStore[]; storePlans: StorePlan[] }>, now: Date): Promise<ImportResult> {
  try {
    return await db.transaction().execute(async (trx): Promise<ImportResult> => {
      const fields: Fields = {};
      const { stores, storePlans } = await plan(trx, fields);
      const sensorPlans = await planSensors(trx, storePlans, fields);
      if (Object.keys(fields).length > 0) return { ok: false, reason: 'invalid', fields };
      const answer = importAnswerOf(
        dryRun,
        sensorPlans.map(({ plan: { storeId, created }, fresh, existing }): ImportedStore => ({ store_id: storeId, created, sensors_created: fresh.length, sensors_existing: existing })),
      );
      if (!dryRun) await write(trx, viewer, stores, sensorPlans.flatMap(({ fresh }) => fresh), now);
      return { ok: true, answer };
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return { ok: false, reason: 'conflict' };
    throw error;
  }
}

/** POST /v1/stores/import: stores with their user groups and sensors. */
export async function importStores(db: Db, viewer: Viewer, request: StoreImportRequest, now: Date): Promise<ImportResult> {
  if (!can(viewer.authority, 'storeImport')) return { ok: false, reason: 'forbidden' };
  return runImport(
    db,
    viewer,
    request.dry_run,
    async (trx, fields) => {
      const stores = await resolveUsergroups(trx, request, fields);
      const { existing, created } = await planStores(trx, stores, fields);
      const storePlans = stores.map((store, index) => ({ storeId: store.store_id, created: !existing.has(store.store_id), sensors: request.stores[index].sensors, at: `stores.${index}` }));
      return { stores: created, storePlans };
    },
    now,
  );
}

/** POST /v1/equipments/import: sensors of one store (the caller has checked the store is the viewer's). */
export async function importSensors(db: Db, viewer: Viewer, request: SensorImportRequest, now: Date): Promise<ImportResult> {
  if (!can(viewer.authority, 'storeManagement')) return { ok: false, reason: 'forbidden' };
  return runImport(db, viewer, request.dry_run, async () => ({ stores: [], storePlans: [{ storeId: request.store_id, created: false, sensors: request.sensors, at: '' }] }), now);
}
