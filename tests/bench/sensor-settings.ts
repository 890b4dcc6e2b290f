// Sensor settings figures (issue 12) on a large chain: 20,000 stores × 10 sensors, one store with
// 40 sensors, 2 unregistered sensors heard and 500 alert-stop schedules.
//  - the sensors show page's loader (default tab: canViewStore as requireStoreUser runs it, then
//    the sensor list and the unregistered sensors), for an administrator and an area manager;
//  - the alert-stop tab's month (scheduledDaysInMonth over the 500 schedules);
//  - a sensor save (saveSensor) → the next reading (ingestReadings) judged with the new limit:
//    the time from the save's return to the reading's alert, p50/p95 over 30 runs.
//   npx tsx tests/bench/sensor-settings.ts
import { sql } from 'kysely';
import { toCompactDateTime } from '../../app/domain/japan-time';
import { SensorSaveSchema } from '../../app/domain/sensor-settings';
import { scheduledDaysInMonth } from '../../app/models/alert-schedules.server';
import { ensureMeasurementPartitions } from '../../app/models/measurement-partitions.server';
import { getSensorDetail, listSettingsSensors, listUnregisteredSensors } from '../../app/models/sensor-settings.server';
import { canViewStore } from '../../app/models/stores.server';
import type { Viewer } from '../../app/models/users.server';
import { ingestReadings } from '../../app/services/ingest.server';
import { saveSensor } from '../../app/services/sensor-settings.server';
import { machine, percentile } from '../support/console';
import { type BenchDatabase, runBench } from '../support/bench';

const STORES = 20_000;
const SENSORS = 10;
const TARGET_SENSORS = 40;
const SCHEDULES = 500;

const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50_ms: Number(percentile(sorted, 0.5).toFixed(1)), p95_ms: Number(percentile(sorted, 0.95).toFixed(1)), runs: sorted.length };
};

async function timed(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs + 5; run += 1) {
    const t = performance.now();
    await work();
    if (run >= 5) times.push(performance.now() - t); // the first runs warm the cache
  }
  return times;
}

async function main({ db }: BenchDatabase) {
  const t0 = performance.now();
  await sql`
    insert into companies values ('BC1', 'ベンチ商事', now(), now());
    insert into storegroups select 'G' || g, 'BC1', 'エリア' || g, now(), now() from generate_series(1, 200) g;
    insert into stores (store_id, store_no, store_name, company_id, storegroup_id, prefecture_id, address, opening_date, working_state, store_status, gateway_info)
      select 'S' || i, lpad(i::text, 8, '0'), 'ベンチ店 ' || i, 'BC1', 'G' || (1 + i % 200), 1 + i % 47, '住所', '2024-01-01', 1, 2, 'GW' || i
      from generate_series(1, ${sql.lit(STORES)}) i;
    insert into sensors (store_id, equipment_name, serial_no, icon_kind, location_no, lower_limit, upper_limit, time_constant, created_at)
      select 'S' || i, 'センサ' || s, 'AA:BB:CC:DD:' || lpad(to_hex(s / 256), 2, '0') || ':' || lpad(to_hex(s % 256), 2, '0'), 1 + s % 22, s, 0, 10, 1, now() - interval '60 days'
      from generate_series(1, ${sql.lit(STORES)}) i, generate_series(1, case when i = 1 then ${sql.lit(TARGET_SENSORS)} else ${sql.lit(SENSORS)} end) s;
    insert into sensor_states (store_id, equipment_id, last_measured_at, last_temperature, last_battery, last_receive_sensitivity)
      select store_id, equipment_id, now(), 4.5, 80, -70 from sensors;
    insert into sensor_settings_history (store_id, equipment_id, effective_from, lower_limit, upper_limit, time_constant)
      select store_id, equipment_id, created_at, lower_limit, upper_limit, time_constant from sensors;
    insert into heard_sensors (store_id, serial_no, format, temperature, receive_sensitivity, heard_at)
      values ('S1', 'C0:FF:EE:00:00:01', 'atc1441', 4.5, -70, now()), ('S1', 'C0:FF:EE:00:00:02', 'pvvx', -18.5, -80, now());
    insert into alert_schedules (store_id, schedule_type, term_type, start_date, end_date, time_target_type, mon_flg, wed_flg)
      select 'S1', case when g % 3 = 0 then 2 else 1 end, case when g % 3 = 0 then 1 else 1 + g % 3 end,
             date '2026-01-01' + (g % 330), case when g % 3 = 0 then null else date '2026-01-01' + (g % 330) + (g % 7) end, 1, g % 2, 1 - g % 2
      from generate_series(1, ${sql.lit(SCHEDULES)}) g;
    insert into usergroups (usergroup_name, usergroup_authority) values ('管理者', 1), ('エリアマネージャー', 30);
    insert into users (login_id, user_name) values ('admin', '管理者'), ('area', 'エリア');
    insert into user_usergroups values (1, 1), (2, 2);
    insert into store_usergroups select 'S' || i, 2 from generate_series(1, 15) i;
    analyze;
  `.execute(db);
  await ensureMeasurementPartitions(db, new Date(Date.now() - 2 * 86_400_000), new Date());
  const seedSeconds = (performance.now() - t0) / 1000;
  const admin: Viewer = { userId: 1, loginId: 'admin', userName: '管理者', authority: 1, language: 'JP', mailaddress1: null };
  const area: Viewer = { ...admin, userId: 2, loginId: 'area', authority: 30 };

  const showLoader = (viewer: Viewer, registers: boolean) => async () => {
    if (!(await canViewStore(db, viewer, 'S1'))) throw new Error('not visible');
    const [list] = await Promise.all([listSettingsSensors(db, viewer, 'S1'), registers ? listUnregisteredSensors(db, viewer, 'S1') : null]);
    if (list?.equipments.length !== TARGET_SENSORS) throw new Error('wrong sensor count');
  };
  const results: Record<string, unknown> = {
    'sensors show loader, administrator (40 sensors + unregistered)': stats(await timed(100, showLoader(admin, true))),
    'sensors show loader, area manager (40 sensors)': stats(await timed(100, showLoader(area, false))),
    'alert-stop calendar month (500 schedules)': stats(await timed(100, () => scheduledDaysInMonth(db, 'S1', 2026, 6))),
  };

  // Save → next reading judged with the new limit. Each run lowers the upper limit below the
  // reading's temperature, then a reading is ingested; the alert must open at once.
  const sensor = await db.selectFrom('sensors').select(['equipment_id', 'serial_no']).where('store_id', '=', 'S1').orderBy('equipment_id').executeTakeFirstOrThrow();
  const saveToJudged: number[] = [];
  const saves: number[] = [];
  let minute = Math.floor(Date.now() / 60_000) - 200;
  for (let run = 0; run < 35; run += 1) {
    const upper = run % 2 === 0 ? 5 : 20; // alternately below and above the 10 ℃ reading
    const detail = (await getSensorDetail(db, admin, sensor.equipment_id))!;
    const input = SensorSaveSchema.parse({ store_id: 'S1', equipment_id: sensor.equipment_id, updated_at: detail.updated_at, equipment_name: detail.equipment_name, lower_limit: 0, upper_limit: upper, icon_kind: detail.icon_kind, time_constant: 1 });
    const t = performance.now();
    const saved = await saveSensor(db, admin, input, new Date());
    const savedAt = performance.now();
    if (!saved.ok) throw new Error(`save refused: ${saved.reason}`);
    minute += 1;
    await ingestReadings(db, 'S1', [{ serial_no: sensor.serial_no, measured_at: toCompactDateTime(new Date(minute * 60_000)), temperature: 10, error: false, battery: 80, receive_sensitivity: -70 }], new Date());
    const judged = performance.now();
    const state = await db.selectFrom('sensor_states').select('alert_codes').where('equipment_id', '=', sensor.equipment_id).executeTakeFirstOrThrow();
    const alerting = state.alert_codes.includes('OE00000001');
    if (alerting !== (upper === 5)) throw new Error(`run ${run}: the reading was not judged with upper limit ${upper} (alerts ${state.alert_codes.join(',')})`);
    if (run >= 5) {
      saves.push(savedAt - t);
      saveToJudged.push(judged - savedAt);
    }
  }
  results['sensor save (the service, one transaction)'] = stats(saves);
  results['save returned → next reading judged with the new limit'] = stats(saveToJudged);
  console.log(JSON.stringify({ machine: machine(), stores: STORES, sensors: STORES * SENSORS + TARGET_SENSORS - SENSORS, target_store_sensors: TARGET_SENSORS, schedules: SCHEDULES, seed_seconds: Number(seedSeconds.toFixed(1)), results }, null, 2));
}

runBench('onreco_bench_sensor_settings', main);
