import type { Db } from '~/db/db.server';
import { ALERT_STOP_MESSAGES, type AlertScheduleAnswer, type AlertScheduleSave, answerOf, coversRange, toSchedule } from '~/domain/alert-stop-editor';
import { toCompactDate } from '~/domain/japan-time';
import {
  type StoredAlertSchedule,
  deleteSchedule,
  getScheduleStore,
  getStoredSchedule,
  insertSchedule,
  listSchedulesNear,
  replaceSchedule,
  sensorsOfStore,
} from '~/models/alert-schedules.server';
import { audit } from '~/models/audit.server';
import type { Viewer } from '~/models/users.server';

// Alert-stop schedules (001 §2 list and editor, §7 /v1/alert_schedule): the list of a date range,
// one schedule for the editor, the save with the rules of 001 §4 and the delete, each write with
// its audit row in the same transaction. The engine reads the schedules in each reading's
// transaction (alert-persister loadStoreForEvaluation), so a save counts from the next reading.

export const STORE_TARGET_LABEL = '店舗全体';

export type ScheduleFailure = { ok: false; reason: 'not_found' } | { ok: false; reason: 'invalid'; fields: Record<string, string> };

const answerWith = (storeId: string, sensors: readonly { equipment_id: number; equipment_name: string }[]) => {
  const names = new Map(sensors.map((sensor) => [sensor.equipment_id, sensor.equipment_name]));
  return (stored: StoredAlertSchedule): AlertScheduleAnswer => answerOf(storeId, stored.scheduleId, stored.schedule, names, STORE_TARGET_LABEL);
};

/** The store's name, sensors and the schedules in force on at least one day of the range; null for a store the viewer may not see. */
export async function listAlertSchedules(db: Db, viewer: Viewer, storeId: string, startDate: string, endDate: string, now: Date) {
  const [store, stored] = await Promise.all([getScheduleStore(db, viewer, storeId, toCompactDate(now)), listSchedulesNear(db, viewer, storeId, startDate, endDate)]);
  if (!store) return null;
  const schedules = stored.filter((entry) => coversRange(entry.schedule, startDate, endDate)).map(answerWith(storeId, store.sensors));
  return { store_name: store.storeName, sensors: store.sensors, schedules };
}

/** The editor's data: the store, its sensors and the schedule (null when creating); null when the store or schedule is not there. */
export async function getAlertScheduleForEdit(db: Db, viewer: Viewer, storeId: string, scheduleId: number | null, now: Date) {
  const store = await getScheduleStore(db, viewer, storeId, toCompactDate(now));
  if (!store) return null;
  if (scheduleId === null) return { store_name: store.storeName, sensors: store.sensors, schedule: null };
  const stored = await getStoredSchedule(db, viewer, storeId, scheduleId);
  if (!stored) return null;
  return { store_name: store.storeName, sensors: store.sensors, schedule: answerWith(storeId, store.sensors)(stored) };
}

/**
 * Creates (schedule_id null) or replaces a schedule. Refused, changing nothing: a store or schedule
 * the viewer may not see (not_found), a store without sensors, or a sensor in `times` that is not
 * of the store (invalid, with the field).
 */
export async function saveAlertSchedule(db: Db, viewer: Viewer, input: AlertScheduleSave, now: Date): Promise<{ ok: true; scheduleId: number; created: boolean } | ScheduleFailure> {
  const schedule = toSchedule(input);
  if (!schedule) return { ok: false, reason: 'invalid', fields: { schedule_type: ALERT_STOP_MESSAGES.choose } };
  return db.transaction().execute(async (trx) => {
    const store = await getScheduleStore(trx, viewer, input.store_id, toCompactDate(now));
    if (!store) return { ok: false as const, reason: 'not_found' as const };
    if (store.sensors.length === 0) return { ok: false as const, reason: 'invalid' as const, fields: { store_id: ALERT_STOP_MESSAGES.noSensors } };
    const named = input.times.flatMap((entry, index) => (entry.equipment_id === null ? [] : [{ index, id: entry.equipment_id }]));
    const own = await sensorsOfStore(trx, input.store_id, named.map((entry) => entry.id));
    const foreign = named.find((entry) => !own.has(entry.id));
    if (foreign) return { ok: false as const, reason: 'invalid' as const, fields: { [`times.${foreign.index}.equipment_id`]: ALERT_STOP_MESSAGES.notOfStore } };
    const toAnswer = answerWith(input.store_id, store.sensors);
    if (input.schedule_id === null) {
      const scheduleId = await insertSchedule(trx, input.store_id, schedule);
      await audit(trx, {
        userId: viewer.userId, action: 'alert_schedule.create', targetType: 'alert_schedule', targetId: scheduleId, storeId: input.store_id, at: now,
        details: { before: null, after: toAnswer({ scheduleId, schedule }) },
      });
      return { ok: true as const, scheduleId, created: true };
    }
    const before = await getStoredSchedule(trx, viewer, input.store_id, input.schedule_id, true);
    if (!before) return { ok: false as const, reason: 'not_found' as const };
    await replaceSchedule(trx, input.store_id, input.schedule_id, schedule, now);
    await audit(trx, {
      userId: viewer.userId, action: 'alert_schedule.update', targetType: 'alert_schedule', targetId: input.schedule_id, storeId: input.store_id, at: now,
      details: { before: toAnswer(before), after: toAnswer({ scheduleId: input.schedule_id, schedule }) },
    });
    return { ok: true as const, scheduleId: input.schedule_id, created: false };
  });
}

/** Deletes a schedule of a store the viewer may see; not_found when there is none. */
export async function deleteAlertSchedule(db: Db, viewer: Viewer, storeId: string, scheduleId: number, now: Date): Promise<{ ok: true } | ScheduleFailure> {
  return db.transaction().execute(async (trx) => {
    const before = await getStoredSchedule(trx, viewer, storeId, scheduleId, true);
    if (!before) return { ok: false as const, reason: 'not_found' as const };
    const store = await getScheduleStore(trx, viewer, storeId, toCompactDate(now));
    await deleteSchedule(trx, storeId, scheduleId);
    await audit(trx, {
      userId: viewer.userId, action: 'alert_schedule.delete', targetType: 'alert_schedule', targetId: scheduleId, storeId, at: now,
      details: { before: answerWith(storeId, store?.sensors ?? [])(before), after: null },
    });
    return { ok: true as const };
  });
}
