import type { Db } from '~/db/db.server';
import type { AlertStopSchedule } from '~/domain/alert-stop-schedule';

// The store's alert-stop schedules (alert_schedules and their times), as the engine reads them.

export async function loadAlertStopSchedules(db: Db, storeId: string): Promise<AlertStopSchedule[]> {
  const rows = await db
    .selectFrom('alert_schedules as a')
    .leftJoin('alert_schedule_times as t', (join) => join.onRef('t.store_id', '=', 'a.store_id').onRef('t.schedule_id', '=', 'a.schedule_id'))
    .select([
      'a.schedule_id', 'a.schedule_type', 'a.term_type', 'a.start_date', 'a.end_date', 'a.time_target_type',
      'a.sun_flg', 'a.mon_flg', 'a.tue_flg', 'a.wed_flg', 'a.thu_flg', 'a.fri_flg', 'a.sat_flg',
      't.equipment_id', 't.start_minute', 't.end_minute',
    ])
    .where('a.store_id', '=', storeId)
    .execute();
  const schedules = new Map<number, AlertStopSchedule & { times: AlertStopSchedule['times'][number][] }>();
  for (const row of rows) {
    let schedule = schedules.get(row.schedule_id);
    if (!schedule) {
      schedule = {
        scheduleType: row.schedule_type as AlertStopSchedule['scheduleType'],
        termType: row.term_type as AlertStopSchedule['termType'],
        startDate: row.start_date.replaceAll('-', ''),
        endDate: row.end_date?.replaceAll('-', '') ?? null,
        weekdays: [row.sun_flg, row.mon_flg, row.tue_flg, row.wed_flg, row.thu_flg, row.fri_flg, row.sat_flg].map((flag) => flag === 1),
        timeTargetType: row.time_target_type as AlertStopSchedule['timeTargetType'],
        times: [],
      };
      schedules.set(row.schedule_id, schedule);
    }
    if (row.start_minute !== null && row.end_minute !== null) schedule.times.push({ equipmentId: row.equipment_id, start: row.start_minute, end: row.end_minute });
  }
  return [...schedules.values()];
}
