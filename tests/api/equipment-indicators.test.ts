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
});
