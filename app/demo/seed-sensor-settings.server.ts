import { sql } from 'kysely';
import type { Db } from '~/db/db.server';

// The demo chain's sensor settings (issue 12): every sensor's settings history from the start of
// the demo's readings, with one refrigerated case whose upper limit was tightened 20 days ago
// (the graph of last month shows the old limit), and two BLE sensors the first operating store's
// gateway hears that are not registered (the sensors show page lists them under 未登録センサ).

const DAY_MS = 24 * 60 * 60 * 1000;

export async function seedSensorSettings(db: Db, now: Date, days: number): Promise<void> {
  // From before the demo's readings and before the change below.
  const since = new Date(now.getTime() - Math.max(days + 1, 60) * DAY_MS);
  const changedAt = new Date(now.getTime() - 20 * DAY_MS);
  const store = await db
    .selectFrom('stores')
    .innerJoin('sensors', 'sensors.store_id', 'stores.store_id')
    .select(['stores.store_id'])
    .where('stores.working_state', '=', 1)
    .where('sensors.upper_limit', 'is not', null)
    .orderBy('stores.store_no')
    .limit(1)
    .executeTakeFirst();
  const changed = store
    ? await db.selectFrom('sensors').select(['equipment_id']).where('store_id', '=', store.store_id).where('upper_limit', 'is not', null).where('upper_limit', '<', 55).orderBy('equipment_id').limit(1).executeTakeFirst()
    : undefined;
  await sql`
    insert into sensor_settings_history (store_id, equipment_id, effective_from, effective_to, lower_limit, upper_limit, guard_time, snoozing_time, time_constant, def_time)
    select store_id, equipment_id, ${since}::timestamptz, null, lower_limit, upper_limit, guard_time, snoozing_time, time_constant, def_time from sensors
    on conflict do nothing`.execute(db);
  if (store && changed) {
    // Until 20 days ago the case's upper limit was 3 ℃ higher and it had no defrost range.
    await db
      .updateTable('sensor_settings_history')
      .set({ effective_from: changedAt })
      .where('store_id', '=', store.store_id)
      .where('equipment_id', '=', changed.equipment_id)
      .execute();
    await sql`
      insert into sensor_settings_history (store_id, equipment_id, effective_from, effective_to, lower_limit, upper_limit, guard_time, snoozing_time, time_constant, def_time)
      select store_id, equipment_id, ${since}::timestamptz, ${changedAt}::timestamptz, lower_limit, upper_limit + 3, guard_time, snoozing_time, time_constant, '[]'::jsonb
      from sensors where store_id = ${store.store_id} and equipment_id = ${changed.equipment_id}`.execute(db);
  }
  if (store) {
    await db
      .insertInto('heard_sensors')
      .values([
        { store_id: store.store_id, serial_no: 'C4:7C:8D:6A:10:21', format: 'atc1441', temperature: 4.2, receive_sensitivity: -68, heard_at: new Date(now.getTime() - 2 * 60_000), reported_at: now },
        { store_id: store.store_id, serial_no: 'A4:C1:38:5E:22:07', format: 'pvvx', temperature: -18.6, receive_sensitivity: -81, heard_at: new Date(now.getTime() - 7 * 60_000), reported_at: now },
      ])
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
