// Alert-stop figures (issue 12): the alert-stop list and the calendar month with 500 schedules
// in one store (40 sensors), beside 19 other stores of 500 schedules each (10,000 rows in all), in
// a fresh database. Times what the list page's loader runs (listAlertSchedules: the store, its
// sensors and the schedules in force in the range, then the rows' texts) for one day and for a
// month, as an administrator and as an area manager (the visibility subquery), and the calendar
// month: the schedules near the month and, per day, whether one is in force (the engine's day
// rule), p50/p95 over 50 runs after warm-up. Target p95 <= 50 ms.
//   npx tsx tests/bench/alert-stops.ts            (SCHEDULES=500 to change)
import os from 'node:os';
import { coversRange, listRows } from '../../app/domain/alert-stop-editor';
import { fromJapan, japanParts, toCompactDate } from '../../app/domain/japan-time';
import { insertSchedule, listSchedulesNear } from '../../app/models/alert-schedules.server';
import type { Viewer } from '../../app/models/users.server';
import { listAlertSchedules } from '../../app/services/alert-schedules.server';
import { createSensor, createStore, createUser } from '../fixtures/chain';
import { machine, percentile } from '../support/console';
import { type BenchDatabase, runBench } from '../support/bench';

const SCHEDULES = Number(process.env.SCHEDULES ?? 500);
const OTHER_STORES = 19;
const SENSORS = 40;
const RUNS = 50;
const WARM_UP = 5;
const DAY_MS = 86_400_000;

const round = (value: number) => Math.round(value * 100) / 100;

/** A realistic mix: one-off days (deliveries), free periods (renovations), weekly cleanings, per-sensor defrost-like windows. */
function scheduleOf(index: number, today: Date, sensorIds: number[]) {
  const day = (offset: number) => toCompactDate(new Date(today.getTime() + offset * DAY_MS));
  const offset = (index * 7919) % 730 - 365; // spread over a year back and a year ahead
  const weekdays = Array.from({ length: 7 }, (_, weekday) => (index + weekday) % 3 === 0);
  const none = Array<boolean>(7).fill(false);
  switch (index % 5) {
    case 0:
    case 1:
      return { scheduleType: 1 as const, termType: 2 as const, startDate: day(offset), endDate: day(offset), weekdays: none, timeTargetType: 1 as const, times: [{ equipmentId: null, start: 300, end: 390 }, { equipmentId: null, start: 840, end: 900 }] };
    case 2:
      return { scheduleType: 1 as const, termType: 3 as const, startDate: day(offset), endDate: day(offset + 10), weekdays: none, timeTargetType: 1 as const, times: [{ equipmentId: null, start: 60, end: 240 }] };
    case 3:
      return { scheduleType: 2 as const, termType: 1 as const, startDate: day(offset), endDate: index % 2 ? null : day(offset + 120), weekdays, timeTargetType: 1 as const, times: [{ equipmentId: null, start: 120, end: 210 }] };
    default: {
      const sensors = [sensorIds[index % sensorIds.length], sensorIds[(index + 7) % sensorIds.length]];
      return {
        scheduleType: 2 as const, termType: 1 as const, startDate: day(offset), endDate: null, weekdays: Array<boolean>(7).fill(true), timeTargetType: 2 as const,
        times: sensors.flatMap((equipmentId) => [{ equipmentId, start: 180, end: 210 }, { equipmentId, start: 900, end: 930 }]),
      };
    }
  }
}

async function time(run: () => Promise<unknown>) {
  for (let i = 0; i < WARM_UP; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const p95 = round(percentile(samples, 0.95));
  return { p50_ms: round(percentile(samples, 0.5)), p95_ms: p95, max_ms: round(samples[samples.length - 1]), met: p95 <= 50 };
}

async function main({ db }: BenchDatabase) {
  const now = new Date();
  const parts = japanParts(now);
  const today = fromJapan(parts.year, parts.month, parts.day);
  const stores = ['AS000', ...Array.from({ length: OTHER_STORES }, (_, i) => `AS${String(i + 1).padStart(3, '0')}`)];
  const t0 = performance.now();
  for (const storeId of stores) {
    await createStore(db, storeId);
    const sensorIds: number[] = [];
    for (let i = 0; i < SENSORS; i += 1) sensorIds.push(await createSensor(db, storeId, `AA:BB:${storeId.slice(-2)}:${storeId.slice(2, 3)}0:00:${i.toString(16).padStart(2, '0')}`, { location_no: i + 1, equipment_name: `センサ ${i + 1}` }));
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < SCHEDULES; i += 1) await insertSchedule(trx, storeId, scheduleOf(i + stores.indexOf(storeId), today, sensorIds));
    });
  }
  const seedSeconds = round((performance.now() - t0) / 1000);
  const areaId = await createUser(db, 'area', 30, { storeIds: [stores[0]] });
  const admin: Viewer = { userId: 1, loginId: 'admin', userName: '管理者', authority: 1, language: 'JP', mailaddress1: null };
  const area: Viewer = { userId: areaId, loginId: 'area', userName: 'area', authority: 30, language: 'JP', mailaddress1: null };
  const day = toCompactDate(today);
  const monthFirst = `${day.slice(0, 6)}01`;
  const monthLast = toCompactDate(new Date(fromJapan(parts.year, parts.month + 1, 1).getTime() - DAY_MS));
  const listPage = (viewer: Viewer, start: string, end: string) => async () => {
    const list = await listAlertSchedules(db, viewer, stores[0], start, end, now);
    return listRows(list!.schedules);
  };
  const month = (viewer: Viewer) => async () => {
    const near = await listSchedulesNear(db, viewer, stores[0], monthFirst, monthLast);
    const days: string[] = [];
    for (let d = fromJapan(parts.year, parts.month, 1); toCompactDate(d) <= monthLast; d = new Date(d.getTime() + DAY_MS)) {
      const compact = toCompactDate(d);
      if (near.some((entry) => coversRange(entry.schedule, compact, compact))) days.push(compact);
    }
    return days;
  };
  const shown = (await listAlertSchedules(db, admin, stores[0], day, day, now))!.schedules.length;
  const shownMonth = (await listAlertSchedules(db, admin, stores[0], monthFirst, monthLast, now))!.schedules.length;
  const results = {
    // The machine's own floor at this moment (shared cores): a round trip that does nothing.
    baseline_select_1: await time(() => db.selectNoFrom((eb) => eb.val(1).as('one')).execute()),
    list_one_day_admin: { listed: shown, ...(await time(listPage(admin, day, day))) },
    list_one_day_area_manager: await time(listPage(area, day, day)),
    list_month_admin: { listed: shownMonth, ...(await time(listPage(admin, monthFirst, monthLast))) },
    calendar_month_admin: { highlighted_days: (await month(admin)()).length, ...(await time(month(admin))) },
    calendar_month_area_manager: await time(month(area)),
  };
  console.log(JSON.stringify({ machine: machine(), load_average: os.loadavg().map(round), schedules_in_store: SCHEDULES, stores: stores.length, schedules_total: SCHEDULES * stores.length, sensors_per_store: SENSORS, seed_seconds: seedSeconds, runs: RUNS, results }, null, 2));
}

runBench('onreco_bench_alert_stops', main);
