import type { Db } from '~/db/db.server';
import { can } from '~/domain/roles';
import { SENSOR_MESSAGES, type SensorSave } from '~/domain/sensor-settings';
import { audit } from '~/models/audit.server';
import {
  type SensorSettingsRow,
  insertSensor,
  lockSensorRow,
  measureTargetKindExists,
  recordSettingsChange,
  serialTaken,
  updateSensor,
} from '~/models/sensor-settings.server';
import { canViewStore } from '~/models/stores.server';
import type { Viewer } from '~/models/users.server';

// The sensor save (console form and POST /v1/equipments), in one transaction: the sensor row
// (locked for an update, checked against the updated_at the editor loaded), its settings history
// (the period in force closes, a new one opens) and the audit row with the values before and
// after. The ingest path reads the sensor's settings from the database inside each reading's
// transaction (alert-persister loadStoreForEvaluation), so the next reading is judged with them:
// there is no cache to invalidate. Registration (no equipment_id) is store management.

export type SensorSaveFailure =
  | { ok: false; reason: 'not_found' | 'forbidden' }
  | { ok: false; reason: 'stale'; message: string }
  | { ok: false; reason: 'duplicate' | 'invalid'; fields: Record<string, string> };

export type SensorSaveResult = { ok: true; created: boolean; equipmentId: number; updatedAt: string } | SensorSaveFailure;

const settingsOf = (row: SensorSettingsRow): SensorSettingsRow => ({
  lower_limit: row.lower_limit,
  upper_limit: row.upper_limit,
  guard_time: row.guard_time,
  snoozing_time: row.snoozing_time,
  time_constant: row.time_constant,
  def_time: row.def_time ?? [],
});

const settingsChanged = (a: SensorSettingsRow, b: SensorSettingsRow) => JSON.stringify(settingsOf(a)) !== JSON.stringify(settingsOf(b));

const AUDITED = [
  'equipment_name', 'installation_datetime', 'removal_datetime', 'measure_target_equipment_kind_id', 'lower_limit', 'upper_limit',
  'guard_time', 'snoozing_time', 'icon_kind', 'def_time', 'time_constant', 'disp_flg',
] as const;

/** What an audit row keeps of a sensor's fields. */
export const audited = (row: Record<string, unknown>) => Object.fromEntries(AUDITED.map((field) => [field, row[field] ?? null]));

export async function saveSensor(db: Db, viewer: Viewer, input: SensorSave, now: Date): Promise<SensorSaveResult> {
  const creating = input.equipment_id === null;
  if (!can(viewer.authority, creating ? 'storeManagement' : 'storeSettings')) return { ok: false, reason: 'forbidden' };
  if (!(await canViewStore(db, viewer, input.store_id))) return { ok: false, reason: 'not_found' };
  if (input.measure_target_equipment_kind_id !== null && !(await measureTargetKindExists(db, input.measure_target_equipment_kind_id))) {
    return { ok: false, reason: 'invalid', fields: { measure_target_equipment_kind_id: SENSOR_MESSAGES.choose } };
  }
  return db.transaction().execute(async (trx): Promise<SensorSaveResult> => {
    if (input.equipment_id === null) {
      const serialNo = input.serial_no!;
      if (await serialTaken(trx, input.store_id, serialNo)) return { ok: false, reason: 'duplicate', fields: { serial_no: SENSOR_MESSAGES.duplicateSerial } };
      const created = await insertSensor(trx, { ...input, serial_no: serialNo }, now);
      await recordSettingsChange(trx, { storeId: input.store_id, equipmentId: created.equipmentId, createdAt: now }, null, { ...input }, now);
      await audit(trx, {
        userId: viewer.userId,
        action: 'sensor.create',
        targetType: 'sensor',
        targetId: created.equipmentId,
        storeId: input.store_id,
        details: { before: null, after: { serial_no: serialNo, ...audited({ ...input }) } },
        at: now,
      });
      return { ok: true, created: true, ...created };
    }
    const row = await lockSensorRow(trx, input.store_id, input.equipment_id);
    if (!row) return { ok: false, reason: 'not_found' };
    if (row.updated_at_text !== input.updated_at) return { ok: false, reason: 'stale', message: SENSOR_MESSAGES.stale };
    const updatedAt = await updateSensor(trx, { ...input, equipment_id: input.equipment_id }, now);
    const before = { ...row, def_time: row.def_time ?? [] };
    if (settingsChanged(before, { ...input })) {
      await recordSettingsChange(trx, { storeId: input.store_id, equipmentId: input.equipment_id, createdAt: row.created_at }, before, { ...input }, now);
    }
    await audit(trx, {
      userId: viewer.userId,
      action: 'sensor.update',
      targetType: 'sensor',
      targetId: input.equipment_id,
      storeId: input.store_id,
      details: { before: audited(before), after: audited({ ...input }) },
      at: now,
    });
    return { ok: true, created: false, equipmentId: input.equipment_id, updatedAt };
  });
}
