import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { type AlertStopSchedule, isAlertStopDay } from '~/domain/alert-stop-schedule';
import { storeVisibleTo, visibleStoreExists } from './stores.server';
import type { Viewer } from './users.server';

// The store's alert-stop schedules (alert_schedules and their times), as the engine reads them.

export async function loadAlertStopSchedules(db: Db, storeId: string): Promise<AlertStopSchedule[]> {
  return (await loadStoresAlertStopSchedules(db, [storeId])).get(storeId) ?? [];
}

/** loadAlertStopSchedules for many stores in one statement, by store (a store without schedules is left out). */
export async function loadStoresAlertStopSchedules(db: Db, storeIds: readonly string[]): Promise<Map<string, AlertStopSchedule[]>> {
  if (storeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('alert_schedules as a')
    .leftJoin('alert_schedule_times as t', (join) => join.onRef('t.store_id', '=', 'a.store_id').onRef('t.schedule_id', '=', 'a.schedule_id'))
    .select([
      'a.store_id', 'a.schedule_id', 'a.schedule_type', 'a.term_type', 'a.start_date', 'a.end_date', 'a.time_target_type',
      'a.sun_flg', 'a.mon_flg', 'a.tue_flg', 'a.wed_flg', 'a.thu_flg', 'a.fri_flg', 'a.sat_flg',
      't.equipment_id', 't.start_minute', 't.end_minute',
    ])
    .where('a.store_id', '=', sql<string>`any(${storeIds}::text[])`)
    .execute();
  const rowsOf = new Map<string, typeof rows>();
  for (const row of rows) {
    const list = rowsOf.get(row.store_id);
    if (list) list.push(row);
    else rowsOf.set(row.store_id, [row]);
  }
  return new Map([...rowsOf].map(([storeId, storeRows]) => [storeId, groupSchedules(storeRows).map((entry) => entry.schedule)]));
}

/**
 * The days (YYYYMMDD) of a month on which one of the store's alert-stop schedules is in force
 * (the sensors show page's calendar highlights them): the schedules that overlap the month, each
 * expanded day by day with the rules of domain/alert-stop-schedule.ts (weekly by its weekday
 * flags, daily on its day, a free period over its dates).
 */
export async function scheduledDaysInMonth(db: Db, storeId: string, year: number, month: number): Promise<string[]> {
  const first = `${year}-${String(month).padStart(2, '0')}-01`;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = `${year}-${String(month).padStart(2, '0')}-${String(lastDay).padStart(2, '0')}`;
  const rows = await db
    .selectFrom('alert_schedules as a')
    .select(['a.schedule_type', 'a.term_type', 'a.start_date', 'a.end_date', 'a.time_target_type', 'a.sun_flg', 'a.mon_flg', 'a.tue_flg', 'a.wed_flg', 'a.thu_flg', 'a.fri_flg', 'a.sat_flg'])
    .where('a.store_id', '=', storeId)
    .where('a.start_date', '<=', last)
    // A sequential weekly or daily schedule never reaches past its week; the day filter below decides.
    .where((eb) => eb.or([eb('a.end_date', 'is', null), eb('a.end_date', '>=', first)]))
    .execute();
  const schedules: AlertStopSchedule[] = rows.map((row) => ({
    scheduleType: row.schedule_type as AlertStopSchedule['scheduleType'],
    termType: row.term_type as AlertStopSchedule['termType'],
    startDate: row.start_date.replaceAll('-', ''),
    endDate: row.end_date?.replaceAll('-', '') ?? null,
    weekdays: [row.sun_flg, row.mon_flg, row.tue_flg, row.wed_flg, row.thu_flg, row.fri_flg, row.sat_flg].map((flag) => flag === 1),
    timeTargetType: row.time_target_type as AlertStopSchedule['timeTargetType'],
    times: [],
  }));
  const days: string[] = [];
  for (let day = 1; day <= lastDay; day++) {
    // Noon Japan time of that day: inside it whatever the clock.
    const noon = new Date(Date.UTC(year, month - 1, day, 3));
    if (schedules.some((schedule) => isAlertStopDay(schedule, noon))) days.push(`${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`);
  }
  return days;
}

// ---- the alert-stop list and editor (001 §2, §7 GET/POST/DELETE /v1/alert_schedule) ----

/** A stored schedule with its id, as the list and the editor read it. */
export interface StoredAlertSchedule {
  scheduleId: number;
  schedule: AlertStopSchedule;
}

/** The store's name and its sensors that are not removed, for a viewer who may see the store; null otherwise. */
export async function getScheduleStore(
  db: Db,
  viewer: Viewer,
  storeId: string,
  today: string,
): Promise<{ storeName: string; sensors: { equipment_id: number; equipment_name: string }[] } | null> {
  // Two statements side by side (each scoped by the viewer), not one after the other.
  const [store, sensors] = await Promise.all([
    db.selectFrom('stores').select('stores.store_name').where('stores.store_id', '=', storeId).where(storeVisibleTo(viewer)).executeTakeFirst(),
    db
      .selectFrom('sensors')
      .select(['equipment_id', 'equipment_name'])
      .where('store_id', '=', storeId)
      .where(visibleStoreExists(viewer, storeId))
      .where((eb) => eb.or([eb('removal_datetime', 'is', null), eb('removal_datetime', '>=', `${today.slice(0, 4)}-${today.slice(4, 6)}-${today.slice(6, 8)}`)]))
      .orderBy('location_no')
      .orderBy('equipment_id')
      .execute(),
  ]);
  if (!store) return null;
  return { storeName: store.store_name, sensors };
}

const isoOf = (date: string) => `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`;

/**
 * The store's schedules whose period may reach the days from `startDate` to `endDate` (YYYYMMDD),
 * with their times, for a viewer who may see the store (scoped in the where). The day rule itself
 * (weekdays, derived ends) is the caller's: alert-stop-editor.ts coversRange.
 */
export async function listSchedulesNear(db: Db, viewer: Viewer, storeId: string, startDate: string, endDate: string): Promise<StoredAlertSchedule[]> {
  const rows = await db
    .selectFrom('alert_schedules as a')
    .leftJoin('alert_schedule_times as t', (join) => join.onRef('t.store_id', '=', 'a.store_id').onRef('t.schedule_id', '=', 'a.schedule_id'))
    .select([
      'a.schedule_id', 'a.schedule_type', 'a.term_type', 'a.start_date', 'a.end_date', 'a.time_target_type',
      'a.sun_flg', 'a.mon_flg', 'a.tue_flg', 'a.wed_flg', 'a.thu_flg', 'a.fri_flg', 'a.sat_flg',
      't.equipment_id', 't.start_minute', 't.end_minute',
    ])
    .where('a.store_id', '=', storeId)
    .where(visibleStoreExists(viewer, storeId))
    .where('a.start_date', '<=', isoOf(endDate))
    .where((eb) => eb.or([eb('a.end_date', 'is', null), eb('a.end_date', '>=', isoOf(startDate))]))
    .orderBy('a.start_date')
    .orderBy('a.schedule_id')
    .orderBy('t.equipment_id')
    .orderBy('t.start_minute')
    .execute();
  return groupSchedules(rows);
}

/** One schedule of the store, for a viewer who may see the store; null when there is none. `lock` takes it for update. */
export async function getStoredSchedule(db: Db, viewer: Viewer, storeId: string, scheduleId: number, lock = false): Promise<StoredAlertSchedule | null> {
  let head = db
    .selectFrom('alert_schedules as a')
    .select('a.schedule_id')
    .where('a.store_id', '=', storeId)
    .where('a.schedule_id', '=', scheduleId)
    .where(visibleStoreExists(viewer, storeId));
  if (lock) head = head.forUpdate();
  if (!(await head.executeTakeFirst())) return null;
  const rows = await db
    .selectFrom('alert_schedules as a')
    .leftJoin('alert_schedule_times as t', (join) => join.onRef('t.store_id', '=', 'a.store_id').onRef('t.schedule_id', '=', 'a.schedule_id'))
    .select([
      'a.schedule_id', 'a.schedule_type', 'a.term_type', 'a.start_date', 'a.end_date', 'a.time_target_type',
      'a.sun_flg', 'a.mon_flg', 'a.tue_flg', 'a.wed_flg', 'a.thu_flg', 'a.fri_flg', 'a.sat_flg',
      't.equipment_id', 't.start_minute', 't.end_minute',
    ])
    .where('a.store_id', '=', storeId)
    .where('a.schedule_id', '=', scheduleId)
    .orderBy('t.equipment_id')
    .orderBy('t.start_minute')
    .execute();
  return groupSchedules(rows)[0] ?? null;
}

type ScheduleRow = {
  schedule_id: number; schedule_type: number; term_type: number; start_date: string; end_date: string | null; time_target_type: number;
  sun_flg: number; mon_flg: number; tue_flg: number; wed_flg: number; thu_flg: number; fri_flg: number; sat_flg: number;
  equipment_id: number | null; start_minute: number | null; end_minute: number | null;
};

function groupSchedules(rows: readonly ScheduleRow[]): StoredAlertSchedule[] {
  const found = new Map<number, StoredAlertSchedule & { schedule: { times: AlertStopSchedule['times'][number][] } }>();
  for (const row of rows) {
    let entry = found.get(row.schedule_id);
    if (!entry) {
      entry = {
        scheduleId: row.schedule_id,
        schedule: {
          scheduleType: row.schedule_type as AlertStopSchedule['scheduleType'],
          termType: row.term_type as AlertStopSchedule['termType'],
          startDate: row.start_date.replaceAll('-', ''),
          endDate: row.end_date?.replaceAll('-', '') ?? null,
          weekdays: [row.sun_flg, row.mon_flg, row.tue_flg, row.wed_flg, row.thu_flg, row.fri_flg, row.sat_flg].map((flag) => flag === 1),
          timeTargetType: row.time_target_type as AlertStopSchedule['timeTargetType'],
          times: [],
        },
      };
      found.set(row.schedule_id, entry);
    }
    if (row.start_minute !== null && row.end_minute !== null) entry.schedule.times.push({ equipmentId: row.equipment_id, start: row.start_minute, end: row.end_minute });
  }
  return [...found.values()];
}

/** Which of `ids` are sensors of the store. */
export async function sensorsOfStore(db: Db, storeId: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('sensors').select('equipment_id').where('store_id', '=', storeId).where('equipment_id', 'in', ids).execute();
  return new Set(rows.map((row) => row.equipment_id));
}

const flagsOf = (schedule: AlertStopSchedule) => {
  const [sun, mon, tue, wed, thu, fri, sat] = schedule.weekdays.map((day) => (day ? 1 : 0));
  return { sun_flg: sun, mon_flg: mon, tue_flg: tue, wed_flg: wed, thu_flg: thu, fri_flg: fri, sat_flg: sat };
};

async function insertTimes(trx: Db, storeId: string, scheduleId: number, schedule: AlertStopSchedule): Promise<void> {
  if (schedule.times.length === 0) return;
  await trx
    .insertInto('alert_schedule_times')
    .values(schedule.times.map((time) => ({ store_id: storeId, schedule_id: scheduleId, equipment_id: time.equipmentId, start_minute: time.start, end_minute: time.end })))
    .execute();
}

/** Stores a new schedule with its times; returns its id. */
export async function insertSchedule(trx: Db, storeId: string, schedule: AlertStopSchedule): Promise<number> {
  const row = await trx
    .insertInto('alert_schedules')
    .values({
      store_id: storeId,
      schedule_type: schedule.scheduleType,
      term_type: schedule.termType,
      start_date: isoOf(schedule.startDate),
      end_date: schedule.endDate ? isoOf(schedule.endDate) : null,
      time_target_type: schedule.timeTargetType,
      ...flagsOf(schedule),
    })
    .returning('schedule_id')
    .executeTakeFirstOrThrow();
  await insertTimes(trx, storeId, row.schedule_id, schedule);
  return row.schedule_id;
}

/** Replaces a stored schedule and its times. */
export async function replaceSchedule(trx: Db, storeId: string, scheduleId: number, schedule: AlertStopSchedule, now: Date): Promise<void> {
  await trx
    .updateTable('alert_schedules')
    .set({
      schedule_type: schedule.scheduleType,
      term_type: schedule.termType,
      start_date: isoOf(schedule.startDate),
      end_date: schedule.endDate ? isoOf(schedule.endDate) : null,
      time_target_type: schedule.timeTargetType,
      updated_at: now,
      ...flagsOf(schedule),
    })
    .where('store_id', '=', storeId)
    .where('schedule_id', '=', scheduleId)
    .execute();
  await trx.deleteFrom('alert_schedule_times').where('store_id', '=', storeId).where('schedule_id', '=', scheduleId).execute();
  await insertTimes(trx, storeId, scheduleId, schedule);
}

/** Deletes a schedule (its times go with it, on delete cascade). */
export async function deleteSchedule(trx: Db, storeId: string, scheduleId: number): Promise<void> {
  await trx.deleteFrom('alert_schedules').where('store_id', '=', storeId).where('schedule_id', '=', scheduleId).execute();
}
