import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { isAlertCode } from '~/domain/alert-codes';
import { defrostRangesOf, isInDefrost } from '~/domain/defrost';
import { startOfJapanDay, toCompactDate, toCompactDateTime } from '~/domain/japan-time';
import { asSensorStatus } from '~/domain/sensor-status';
import { type SensorToday, type StoreSensors, mostImportantAlert, readingTemperature, sensorAlertCodes, sortDefault } from '~/domain/sensor-view';
import { SENSOR_STATE_COLUMNS, dayTemperatureBuckets, pendingCodesOf } from './measurements.server';
import { storeVisibleTo } from './stores.server';
import type { Viewer } from './users.server';

// The sensors of a store as the sensor views and GET /v1/store_sensors show them, the
// equipment detail, the popup's day and the active alerts of sensors. Every query goes through
// stores with the viewer's access in its where.

/**
 * A store's sensors with their latest reading and alert state in ONE indexed query (stores by
 * key, sensors and sensor_states by (store_id, equipment_id)), in the default order (lower
 * limit ascending). Hidden sensors (disp_flg 0) only with includeHidden. null when the store
 * does not exist or the viewer may not see it.
 */

export async function listStoreSensors(db: Db, viewer: Viewer, input: { storeId: string; includeHidden: boolean }): Promise<StoreSensors | null> {
  const rows = await db
    .selectFrom('stores')
    .leftJoin('sensors as s', (join) => {
      const on = join.onRef('s.store_id', '=', 'stores.store_id');
      return input.includeHidden ? on : on.on('s.disp_flg', '=', 1);
    })
    .leftJoin('sensor_states as ss', (join) => join.onRef('ss.store_id', '=', 's.store_id').onRef('ss.equipment_id', '=', 's.equipment_id'))
    .select([
      'stores.store_id',
      'stores.store_name',
      's.equipment_id',
      's.equipment_name',
      's.icon_kind',
      's.location_no',
      's.lower_limit',
      's.upper_limit',
      's.position_x',
      's.position_y',
      's.disp_flg',
      's.serial_no',
      's.guard_time',
      's.snoozing_time',
      's.def_time',
      ...SENSOR_STATE_COLUMNS,
    ])
    .where('stores.store_id', '=', input.storeId)
    .where(storeVisibleTo(viewer))
    .execute();
  if (rows.length === 0) return null;
  const sensors = rows.flatMap((row) => {
    if (row.equipment_id === null) return [];
    const open = (row.alert_codes ?? []).filter(isAlertCode);
    const ranges = defrostRangesOf(row.def_time);
    const measuredAt = row.last_measured_at;
    return [
      {
        equipment_id: row.equipment_id,
        equipment_name: row.equipment_name!,
        icon_kind: row.icon_kind!,
        location_no: row.location_no,
        lower_limit: row.lower_limit,
        upper_limit: row.upper_limit,
        alert_id: mostImportantAlert(open),
        position_x: row.position_x ?? 0,
        position_y: row.position_y ?? 0,
        disp_flg: row.disp_flg ?? 1,
        serial_no: row.serial_no!,
        guard_time: row.guard_time,
        snoozing_time: row.snoozing_time,
        status: asSensorStatus(row.status),
        alerts: sensorAlertCodes(open, pendingCodesOf(row.engine_state)).map((alert_id) => ({ alert_id })),
        // The views show a reading taken inside a defrost range as DEF (convert_def semantics).
        temperature: measuredAt
          ? readingTemperature({ temperature: row.last_temperature, error: row.last_error ?? false }, isInDefrost(ranges, measuredAt), true)
          : null,
        measured_at: measuredAt ? toCompactDateTime(measuredAt) : null,
        battery: row.last_battery,
        receive_sensitivity: row.last_receive_sensitivity,
      },
    ];
  });
  return { store_id: rows[0].store_id, store_name: rows[0].store_name, sensors: sortDefault(sensors) };
}

/** GET /v1/equipments: one sensor's detail (000 §3). */
export interface EquipmentDetail {
  equipment_id: number;
  equipment_name: string;
  icon_kind: number;
  guard_time: number | null;
  serial_no: string;
  snoozing_time: number | null;
  location_no: number | null;
  lower_limit: number | null;
  upper_limit: number | null;
}

/** The sensor's detail, or null when it does not exist or is in a store the viewer may not see. */
export async function getEquipment(db: Db, viewer: Viewer, equipmentId: number): Promise<EquipmentDetail | null> {
  const row = await db
    .selectFrom('sensors as s')
    .innerJoin('stores', 'stores.store_id', 's.store_id')
    .select(['s.equipment_id', 's.equipment_name', 's.icon_kind', 's.guard_time', 's.serial_no', 's.snoozing_time', 's.location_no', 's.lower_limit', 's.upper_limit'])
    .where('s.equipment_id', '=', equipmentId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Today (Japan time) of a sensor of the store: the alerts that started today and the day's
 * readings by 10 minutes. null when the sensor is not in that store or the viewer may not see it.
 */
export async function getSensorToday(db: Db, viewer: Viewer, input: { storeId: string; equipmentId: number; now: Date }): Promise<SensorToday | null> {
  const dayStart = startOfJapanDay(input.now);
  const sensor = await db
    .selectFrom('sensors as s')
    .innerJoin('stores', 'stores.store_id', 's.store_id')
    .select([
      's.store_id',
      's.equipment_id',
      (eb) =>
        eb
          .selectFrom('alert_history as ah')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('ah.store_id', '=', 's.store_id')
          .whereRef('ah.equipment_id', '=', 's.equipment_id')
          .where('ah.started_at', '>=', dayStart)
          .as('alert_count'),
    ])
    .where('s.equipment_id', '=', input.equipmentId)
    .where('s.store_id', '=', input.storeId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
  if (!sensor) return null;
  const points = await dayTemperatureBuckets(db, { storeId: sensor.store_id, equipmentId: sensor.equipment_id }, input.now);
  return { equipment_id: sensor.equipment_id, day: toCompactDate(input.now), alert_count: sensor.alert_count ?? 0, points };
}

/**
 * GET /v1/alert_history/alert_status: the (equipment_id, alert_id) pairs currently active
 * (alert_history rows not recovered, stopped ones included) of the given sensors, limited to
 * the stores the viewer may see; other ids give nothing. Sensors by their unique key, history
 * by the partial index of active rows.
 */
export async function listActiveAlerts(db: Db, viewer: Viewer, equipmentIds: number[]): Promise<{ equipment_id: number; alert_id: string }[]> {
  if (equipmentIds.length === 0) return [];
  const rows = await db
    .selectFrom('sensors as s')
    .innerJoin('stores', 'stores.store_id', 's.store_id')
    .innerJoin('alert_history as ah', (join) => join.onRef('ah.store_id', '=', 's.store_id').onRef('ah.equipment_id', '=', 's.equipment_id'))
    .select(['s.equipment_id', 'ah.alert_id'])
    .distinct()
    .where('s.equipment_id', 'in', equipmentIds)
    .where('ah.recovered_at', 'is', null)
    .where(storeVisibleTo(viewer))
    .orderBy('s.equipment_id')
    .orderBy('ah.alert_id')
    .execute();
  return rows.map((row) => ({ equipment_id: row.equipment_id, alert_id: row.alert_id }));
}
