import type { Db } from '~/db/db.server';
import { normalizeAlertStopSchedule, type AlertStopSchedule } from '~/domain/alert-stop-schedule';
import { toCompactDate } from '~/domain/japan-time';
import { insertSchedule } from '~/models/alert-schedules.server';

// The demo chain's planned alert-stop windows (001 §2 alert-stop list and editor), on top of the
// ones the chain's history was simulated with: all of them start tomorrow, so the seeded history
// stays what the engine would have decided. In the first three operating stores: a weekly
// cleaning (periodic, store-wide), a delivery day (sequential daily, store-wide) and a
// defrost-like window on the coldest sensor (periodic, every day, per sensor).

const DAY_MS = 86_400_000;
const ALL_WEEK = Array<boolean>(7).fill(true);
const NO_WEEKDAYS = Array<boolean>(7).fill(false);

export async function seedAlertStops(db: Db, now: Date): Promise<number> {
  const day = (offset: number) => toCompactDate(new Date(now.getTime() + offset * DAY_MS));
  const stores = await db.selectFrom('stores').select('store_id').where('working_state', '=', 1).orderBy('store_id').limit(3).execute();
  let count = 0;
  for (const [index, { store_id: storeId }] of stores.entries()) {
    const coldest = await db
      .selectFrom('sensors')
      .select('equipment_id')
      .where('store_id', '=', storeId)
      .where('removal_datetime', 'is', null)
      .orderBy('lower_limit', (order) => order.asc().nullsLast())
      .limit(1)
      .executeTakeFirst();
    if (!coldest) continue;
    const cleaningDay = [2, 4, 1][index]; // Tuesday, Thursday, Monday
    const windows: AlertStopSchedule[] = [
      // 週次清掃: every week after closing, the whole store.
      {
        scheduleType: 2, termType: 1, startDate: day(1), endDate: null, timeTargetType: 1,
        weekdays: NO_WEEKDAYS.map((_, weekday) => weekday === cleaningDay),
        times: [{ equipmentId: null, start: 2 * 60, end: 3 * 60 + 30 }],
      },
      // 納品日: the cases stand open while a delivery is put away.
      { scheduleType: 1, termType: 2, startDate: day(3 + index), endDate: null, timeTargetType: 1, weekdays: NO_WEEKDAYS, times: [{ equipmentId: null, start: 5 * 60, end: 6 * 60 + 30 }, { equipmentId: null, start: 14 * 60, end: 15 * 60 }] },
      // 霜取り: the freezer's own daily defrost-like cycle.
      {
        scheduleType: 2, termType: 1, startDate: day(1), endDate: day(90), timeTargetType: 2, weekdays: ALL_WEEK,
        times: [{ equipmentId: coldest.equipment_id, start: 3 * 60, end: 3 * 60 + 30 }, { equipmentId: coldest.equipment_id, start: 15 * 60, end: 15 * 60 + 30 }],
      },
    ];
    for (const window of windows) {
      await insertSchedule(db, storeId, normalizeAlertStopSchedule(window));
      count += 1;
    }
  }
  return count;
}
