import type { Db } from '~/db/db.server';
import { type DefrostTime, defrostRangesOf } from '~/domain/defrost';
import type { DailyIndicators, IndicatorReading, IndicatorSettings } from '~/domain/equipment-indicators';
import { settingsInForce } from './sensor-settings.server';

// Daily equipment indicators (decision 298): what the nightly job reads and writes. Every query
// carries store_id (the distribution column), so each stays on one shard under Citus.

/** Stores with sensors, in order: the job walks them one at a time. */
export async function storesWithSensors(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('sensors').select('store_id').distinct().orderBy('store_id').execute();
  return rows.map((row) => row.store_id);
}

export interface IndicatorInput {
  equipmentId: number;
  settings: IndicatorSettings;
  readings: IndicatorReading[];
}

/**
 * One store's sensors over [from, to) (one Japan day): the readings and the settings in force at
 * the day's start (a change within the day takes effect the next night).
 */
export async function storeIndicatorInputs(db: Db, storeId: string, from: Date, to: Date): Promise<IndicatorInput[]> {
  const sensors = await db.selectFrom('sensors').select(['equipment_id', 'time_constant']).where('store_id', '=', storeId).orderBy('equipment_id').execute();
  if (sensors.length === 0) return [];
  const ids = sensors.map((s) => s.equipment_id);
  const periods = await settingsInForce(db, storeId, ids, from, to);
  const readings = await db
    .selectFrom('measurements')
    .select(['equipment_id', 'measured_at', 'temperature', 'error'])
    .where('store_id', '=', storeId)
    .where('measured_at', '>=', from)
    .where('measured_at', '<', to)
    .orderBy('equipment_id')
    .orderBy('measured_at')
    .execute();
  const byId = new Map<number, IndicatorReading[]>(ids.map((id) => [id, []]));
  for (const row of readings) byId.get(row.equipment_id)?.push({ at: row.measured_at, temperature: row.error ? null : row.temperature });
  return sensors.map((sensor) => {
    const period = periods.find((p) => p.equipmentId === sensor.equipment_id);
    return {
      equipmentId: sensor.equipment_id,
      readings: byId.get(sensor.equipment_id) ?? [],
      settings: {
        lowerLimit: period?.lowerLimit ?? null,
        upperLimit: period?.upperLimit ?? null,
        timeConstant: sensor.time_constant,
        defrostRanges: defrostRangesOf((period?.defrost ?? []) as DefrostTime[]),
      },
    };
  });
}

/** Writes (or rewrites: a rerun of the night replaces it) one store's indicators of a day. */
export async function saveStoreIndicators(db: Db, storeId: string, day: string, rows: readonly { equipmentId: number; indicators: DailyIndicators }[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('equipment_indicators')
    .values(
      rows.map(({ equipmentId, indicators }) => ({
        store_id: storeId,
        equipment_id: equipmentId,
        day,
        recovery_minutes: indicators.recoveryMinutes,
        minutes_above_midpoint: indicators.minutesAboveMidpoint,
        night_average: indicators.nightAverage,
        damped_range: indicators.dampedRange,
        computed_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['store_id', 'equipment_id', 'day']).doUpdateSet((eb) => ({
        recovery_minutes: eb.ref('excluded.recovery_minutes'),
        minutes_above_midpoint: eb.ref('excluded.minutes_above_midpoint'),
        night_average: eb.ref('excluded.night_average'),
        damped_range: eb.ref('excluded.damped_range'),
        computed_at: eb.ref('excluded.computed_at'),
      })),
    )
    .execute();
}

/** A sensor's stored days, oldest first (the sensor page's trend and the drift rule's history). */
export async function sensorIndicatorDays(db: Db, storeId: string, equipmentId: number, fromDay: string) {
  return db
    .selectFrom('equipment_indicators')
    .select(['day', 'recovery_minutes', 'minutes_above_midpoint', 'night_average', 'damped_range'])
    .where('store_id', '=', storeId)
    .where('equipment_id', '=', equipmentId)
    .where('day', '>=', fromDay)
    .orderBy('day')
    .execute();
}
