import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { fromJapan } from '~/domain/japan-time';
import { equipmentIndicatorsJob } from '~/jobs/equipment-indicators.server';
import { insertMeasurementRows } from '~/models/measurement-buckets.server';
import { ensureMeasurementPartitions } from '~/models/measurement-partitions.server';
import { sensorIndicatorDays } from '~/models/equipment-indicators.server';
import { createSensor, createStore } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';

// The nightly equipment indicators job (decision 298): yesterday's readings of each sensor, with
// the defrost windows and limits in force, become one row per sensor and Japan day.

const db = testDb();
const log = pino({ level: 'silent' });
beforeEach(() => resetDb());

describe('the equipment indicators job', () => {
  it('stores yesterday\'s indicators per sensor, and a rerun rewrites the day', async () => {
    await createStore(db, 'S001');
    const freezer = await createSensor(db, 'S001', 'AA:BB:CC:00:0B:01', { lower_limit: -25, upper_limit: -15, def_time: JSON.stringify([{ start: '02:00', end: '02:30' }]) });
    await ensureMeasurementPartitions(db, fromJapan(2026, 11, 1), fromJapan(2026, 12, 1));
    const rows = Array.from({ length: 1440 }, (_, minute) => {
      let temperature = -21;
      if (minute >= 120 && minute < 150) temperature = -8;
      else if (minute >= 150) temperature += 13 * Math.exp(-(minute - 150) / 10);
      return { store_id: 'S001', equipment_id: freezer, measured_at: fromJapan(2026, 11, 10, 0, minute), temperature: Math.round(temperature * 10) / 10, error: false };
    });
    await insertMeasurementRows(db, rows);
    const now = fromJapan(2026, 11, 11, 3, 40);
    await equipmentIndicatorsJob.run({ db, now, log });
    await equipmentIndicatorsJob.run({ db, now, log });
    const days = await sensorIndicatorDays(db, 'S001', freezer, '2026-11-01');
    expect(days).toHaveLength(1);
    expect(days[0].day).toBe('2026-11-10');
    expect(days[0].recovery_minutes).toBeGreaterThan(10);
    expect(days[0].recovery_minutes).toBeLessThan(40);
    expect(days[0].night_average).toBeGreaterThan(-21); // the night holds the recovery after 02:30
    expect(days[0].night_average).toBeLessThan(-20);
    expect(days[0].minutes_above_midpoint).toBeGreaterThan(0);
  });

  it('runs the drift rule: a case warmer than its own days and its peers two nights running is flagged, once per night', async () => {
    await createStore(db, 'S001');
    const settings = { lower_limit: -25, upper_limit: -15, icon_kind: 10, def_time: JSON.stringify([{ start: '02:00', end: '02:30' }]) };
    const ids: number[] = [];
    for (let n = 0; n < 6; n++) ids.push(await createSensor(db, 'S001', `AA:BB:CC:00:0C:0${n}`, settings));
    await ensureMeasurementPartitions(db, fromJapan(2026, 11, 1), fromJapan(2026, 12, 1));
    // 14 ordinary days stored as the job would have written them, then two nights of readings.
    const ordinary = (n: number) => ({ recovery_minutes: 20 + n, minutes_above_midpoint: 60 + 5 * n, night_average: -21 + 0.1 * n, damped_range: 2 + 0.05 * n });
    await db.insertInto('equipment_indicators').values(ids.flatMap((id, n) => Array.from({ length: 14 }, (_, d) => ({ store_id: 'S001', equipment_id: id, day: `2026-11-${String(d + 1).padStart(2, '0')}`, ...ordinary(n), computed_at: new Date() })))).execute();
    const dayReadings = (id: number, day: number, level: number, tau: number) =>
      Array.from({ length: 1440 }, (_, minute) => {
        let temperature = level + 0.2 * Math.sin(minute / 7);
        if (minute >= 120 && minute < 150) temperature = -8;
        else if (minute >= 150) temperature += (-8 - level) * Math.exp(-(minute - 150) / tau);
        return { store_id: 'S001', equipment_id: id, measured_at: fromJapan(2026, 11, day, 0, minute), temperature: Math.round(temperature * 10) / 10, error: false };
      });
    for (const day of [15, 16]) {
      await insertMeasurementRows(db, ids.flatMap((id, n) => (n === 5 ? dayReadings(id, day, -17.5, 60) : dayReadings(id, day, -21 + 0.1 * n, 8))));
      await equipmentIndicatorsJob.run({ db, now: fromJapan(2026, 11, day + 1, 3, 40), log });
    }
    await equipmentIndicatorsJob.run({ db, now: fromJapan(2026, 11, 17, 3, 40), log }); // a rerun of the night
    const flags = await db.selectFrom('equipment_drift_flags').selectAll().orderBy('day').orderBy('indicator').execute();
    expect(new Set(flags.map((f) => f.equipment_id))).toEqual(new Set([ids[5]]));
    expect(flags.filter((f) => f.day === '2026-11-15').every((f) => !f.flagged)).toBe(true);
    const second = flags.filter((f) => f.day === '2026-11-16');
    expect(second.length).toBeGreaterThan(0);
    expect(second.every((f) => f.flagged)).toBe(true);
    expect(new Set(second.map((f) => f.indicator)).size).toBe(second.length); // the rerun did not add rows
    for (const f of second) {
      expect(f.own_z).toBeGreaterThan(3.5);
      expect(f.peer_z).toBeGreaterThan(3.5);
      expect(f.value).toBeGreaterThan(f.peer_median);
    }
    expect(second.map((f) => f.indicator)).toContain('night_average');
  });
});
