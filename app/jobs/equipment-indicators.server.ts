import { type DailyIndicators, DRIFT_HISTORY_DAYS, type DriftDay, type IndicatorKey, type RobustCentre, dailyIndicators, dayDrifts, robustCentre } from '~/domain/equipment-indicators';
import { fromJapan, japanParts } from '~/domain/japan-time';
import type { Db } from '~/db/db.server';
import {
  chainIndicatorsOfDay,
  saveStoreDrifts,
  saveStoreIndicators,
  storeDriftingSensors,
  storeIndicatorHistory,
  storeIndicatorInputs,
  storesWithSensors,
} from '~/models/equipment-indicators.server';
import type { Job } from './job.server';

/** Below this many sensors of a kind, each sensor's peers are the others only. */
const SMALL_KIND = 50;

const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (at: Date) => (({ year, month, day }) => `${year}-${pad(month)}-${pad(day)}`)(japanParts(at));

/**
 * Yesterday's (Japan time) equipment indicators of every sensor, store by store (decision 298),
 * then the drift rule over them (decision 312). Runs at 03:40 Japan time, after the night's
 * defrosts have recovered; a rerun rewrites the day.
 */
export const equipmentIndicatorsJob: Job = {
  name: 'equipment indicators',
  schedule: '0 40 18 * * *', // 18:40 UTC = 03:40 Japan time
  run: async ({ db, now, log }) => {
    const today = japanParts(now);
    const from = fromJapan(today.year, today.month, today.day - 1);
    const to = fromJapan(today.year, today.month, today.day);
    const day = dayOf(from);
    let sensors = 0;
    const stores = await storesWithSensors(db);
    for (const storeId of stores) {
      const inputs = await storeIndicatorInputs(db, storeId, from, to);
      const rows = inputs.map((input) => ({ equipmentId: input.equipmentId, indicators: dailyIndicators(input.readings, input.settings) }));
      await saveStoreIndicators(db, storeId, day, rows, now);
      sensors += rows.length;
    }
    const flagged = await flagDrifts(db, stores, { day, previousDay: dayOf(fromJapan(today.year, today.month, today.day - 2)), historyFrom: dayOf(fromJapan(today.year, today.month, today.day - 1 - DRIFT_HISTORY_DAYS)) }, now);
    log.info({ day, sensors, ...flagged }, 'equipment indicators computed');
  },
};

/**
 * The drift rule over a stored day (decision 312): each sensor against its own trailing days and
 * the other sensors of its furniture kind across the chain that day. A drift on the day after a
 * drifting day flags the sensor.
 */
async function flagDrifts(db: Db, stores: readonly string[], days: { day: string; previousDay: string; historyFrom: string }, now: Date) {
  const chain = await chainIndicatorsOfDay(db, days.day);
  const byKind = new Map<number, typeof chain>();
  for (const row of chain) {
    const rows = byKind.get(row.iconKind) ?? [];
    rows.push(row);
    byKind.set(row.iconKind, rows);
  }
  const valuesOf = (rows: typeof chain, key: IndicatorKey) => rows.map((p) => p.indicators[key]).filter((v): v is number => v !== null);
  // A kind's centre is computed once; in a small kind the sensor itself would move it, so there it is left out.
  const kindCentres = new Map<string, RobustCentre | null>();
  const peersOf = (storeId: string, equipmentId: number, iconKind: number) => (key: IndicatorKey) => {
    const rows = byKind.get(iconKind) ?? [];
    if (rows.length < SMALL_KIND) return robustCentre(valuesOf(rows.filter((p) => p.storeId !== storeId || p.equipmentId !== equipmentId), key), key);
    const cacheKey = `${iconKind}/${key}`;
    if (!kindCentres.has(cacheKey)) kindCentres.set(cacheKey, robustCentre(valuesOf(rows, key), key));
    return kindCentres.get(cacheKey) ?? null;
  };
  const kindOf = new Map(chain.map((row) => [`${row.storeId}/${row.equipmentId}`, row.iconKind]));
  let drifting = 0;
  let flagged = 0;
  for (const storeId of stores) {
    const history = await storeIndicatorHistory(db, storeId, days.historyFrom, days.day);
    const before = await storeDriftingSensors(db, storeId, days.previousDay);
    const found: { equipmentId: number; drift: DriftDay; flagged: boolean }[] = [];
    for (const [equipmentId, sensorDays] of history) {
      const iconKind = kindOf.get(`${storeId}/${equipmentId}`);
      const today = sensorDays.at(-1);
      if (iconKind === undefined || today?.day !== days.day) continue;
      const own: DailyIndicators[] = sensorDays.slice(0, -1).map((d) => d.indicators);
      const drifts = dayDrifts(days.day, today.indicators, own, peersOf(storeId, equipmentId, iconKind));
      if (drifts.length === 0) continue;
      drifting += 1;
      if (before.has(equipmentId)) flagged += 1;
      for (const drift of drifts) found.push({ equipmentId, drift, flagged: before.has(equipmentId) });
    }
    await saveStoreDrifts(db, storeId, days.day, found, now);
  }
  return { drifting, flagged };
}
