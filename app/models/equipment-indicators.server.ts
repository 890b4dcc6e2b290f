import type { Db } from '~/db/db.server';
import { type DefrostTime, defrostRangesOf } from '~/domain/defrost';
import { type DailyIndicators, type DriftDay, INDICATORS, type IndicatorReading, type IndicatorSettings } from '~/domain/equipment-indicators';
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

type IndicatorRow = { recovery_minutes: number | null; minutes_above_midpoint: number | null; night_average: number | null; damped_range: number | null };

const indicatorsOf = (row: IndicatorRow): DailyIndicators => ({
  recoveryMinutes: row.recovery_minutes,
  minutesAboveMidpoint: row.minutes_above_midpoint,
  nightAverage: row.night_average,
  dampedRange: row.damped_range,
});

/** Every sensor's indicators of one day with its furniture kind: the drift rule's peers (decision 312). */
export async function chainIndicatorsOfDay(db: Db, day: string) {
  const rows = await db
    .selectFrom('equipment_indicators as ei')
    .innerJoin('sensors as s', (join) => join.onRef('s.store_id', '=', 'ei.store_id').onRef('s.equipment_id', '=', 'ei.equipment_id'))
    .select(['ei.store_id', 'ei.equipment_id', 's.icon_kind', 'ei.recovery_minutes', 'ei.minutes_above_midpoint', 'ei.night_average', 'ei.damped_range'])
    .where('ei.day', '=', day)
    .execute();
  return rows.map((row) => ({ storeId: row.store_id, equipmentId: row.equipment_id, iconKind: row.icon_kind, indicators: indicatorsOf(row) }));
}

/** One store's stored days in [fromDay, toDay], by sensor, oldest first. */
export async function storeIndicatorHistory(db: Db, storeId: string, fromDay: string, toDay: string): Promise<Map<number, { day: string; indicators: DailyIndicators }[]>> {
  const rows = await db
    .selectFrom('equipment_indicators')
    .select(['equipment_id', 'day', 'recovery_minutes', 'minutes_above_midpoint', 'night_average', 'damped_range'])
    .where('store_id', '=', storeId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .orderBy('equipment_id')
    .orderBy('day')
    .execute();
  const byId = new Map<number, { day: string; indicators: DailyIndicators }[]>();
  for (const row of rows) {
    const days = byId.get(row.equipment_id) ?? [];
    days.push({ day: row.day, indicators: indicatorsOf(row) });
    byId.set(row.equipment_id, days);
  }
  return byId;
}

/** The store's sensors with a drifting indicator on a day (yesterday's half of a two-day run). */
export async function storeDriftingSensors(db: Db, storeId: string, day: string): Promise<Set<number>> {
  const rows = await db.selectFrom('equipment_drift_flags').select('equipment_id').distinct().where('store_id', '=', storeId).where('day', '=', day).execute();
  return new Set(rows.map((row) => row.equipment_id));
}

/** Replaces one store's drift rows of a day (a rerun of the night rewrites them). */
export async function saveStoreDrifts(db: Db, storeId: string, day: string, drifts: readonly { equipmentId: number; drift: DriftDay; flagged: boolean }[], now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('equipment_drift_flags').where('store_id', '=', storeId).where('day', '=', day).execute();
    if (drifts.length === 0) return;
    await trx
      .insertInto('equipment_drift_flags')
      .values(
        drifts.map(({ equipmentId, drift, flagged }) => ({
          store_id: storeId,
          equipment_id: equipmentId,
          day,
          indicator: INDICATORS[drift.key].code,
          value: drift.value,
          own_median: drift.ownMedian,
          own_z: drift.ownZ,
          peer_median: drift.peerMedian,
          peer_z: drift.peerZ,
          flagged,
          computed_at: now,
        })),
      )
      .execute();
  });
}
