import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import {
  type Evaluation,
  SensorAlertStateSchema,
  type SensorSettings,
  sensorAlertSummary,
  storeStatus,
} from '~/domain/alert-engine';
import type { AlertStopSchedule } from '~/domain/alert-stop-schedule';
import { defrostRangesOf } from '~/domain/defrost';
import { getEnv } from '~/env.server';
import { type SensorTransition, recordTransitions } from './alerts.server';

// The database side of the alert engine, shared by ingest (new readings) and the worker
// (silence): load a store's sensors with their state under a lock, let the pure engine decide,
// then write states, history and mails, and the store's status, in the caller's transaction.

export interface StoreForEvaluation {
  storeId: string;
  storeName: string;
  workingState: number | null;
  gatewayDown: boolean;
  sensors: Map<number, SensorUnderEvaluation>;
  schedules: AlertStopSchedule[];
}

export interface SensorUnderEvaluation {
  equipmentId: number;
  equipmentName: string;
  serialNo: string;
  settings: SensorSettings;
  state: Evaluation['state'];
}

/** Locks the store row (one evaluation per store at a time) and loads what the engine needs. Null for an unknown store. */
export async function loadStoreForEvaluation(trx: Db, storeId: string): Promise<StoreForEvaluation | null> {
  const store = await trx
    .selectFrom('stores')
    .select(['store_id', 'store_name', 'working_state', 'gateway_down'])
    .where('store_id', '=', storeId)
    .forUpdate()
    .executeTakeFirst();
  if (!store) return null;
  const [rows, schedules] = await Promise.all([
    trx
      .selectFrom('sensors as s')
      .leftJoin('sensor_states as ss', (join) => join.onRef('ss.store_id', '=', 's.store_id').onRef('ss.equipment_id', '=', 's.equipment_id'))
      .select(['s.equipment_id', 's.equipment_name', 's.serial_no', 's.lower_limit', 's.upper_limit', 's.guard_time', 's.snoozing_time', 's.time_constant', 's.def_time', 'ss.engine_state'])
      .where('s.store_id', '=', storeId)
      .execute(),
    loadAlertStopSchedules(trx, storeId),
  ]);
  const noCommunicationMinutes = getEnv().ONRECO_NO_COMMUNICATION_MINUTES;
  const sensors = new Map(
    rows.map((row) => [
      row.equipment_id,
      {
        equipmentId: row.equipment_id,
        equipmentName: row.equipment_name,
        serialNo: row.serial_no,
        settings: {
          equipmentId: row.equipment_id,
          lowerLimit: row.lower_limit,
          upperLimit: row.upper_limit,
          guardTime: row.guard_time,
          snoozingTime: row.snoozing_time,
          timeConstant: row.time_constant,
          defrostRanges: defrostRangesOf(row.def_time),
          noCommunicationMinutes,
        },
        state: SensorAlertStateSchema.parse(row.engine_state ?? {}),
      },
    ]),
  );
  return { storeId, storeName: store.store_name, workingState: store.working_state, gatewayDown: store.gateway_down, sensors, schedules };
}

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

export interface LatestReading {
  measuredAt: Date;
  temperature: number | null;
  error: boolean;
  battery: number | null;
  receiveSensitivity: number | null;
}

/**
 * Saves the evaluated sensors (engine state, status, open codes, and the latest reading when it
 * is newer than the stored one) in one statement, writes their transitions, and refreshes the
 * store's status.
 */
export async function saveEvaluation(
  trx: Db,
  store: StoreForEvaluation,
  evaluated: { sensor: SensorUnderEvaluation; evaluation: Evaluation; latest: LatestReading | null }[],
  now: Date,
  storeChanges: SensorTransition[] = [],
): Promise<void> {
  if (evaluated.length > 0) {
    const records = evaluated.map(({ sensor, evaluation, latest }) => {
      const summary = sensorAlertSummary(evaluation.state);
      return {
        equipment_id: sensor.equipmentId,
        engine_state: evaluation.state,
        status: summary.status,
        alert_codes: summary.openCodes,
        last_measured_at: latest?.measuredAt.toISOString() ?? null,
        last_temperature: latest?.temperature ?? null,
        last_error: latest?.error ?? false,
        last_battery: latest?.battery ?? null,
        last_receive_sensitivity: latest?.receiveSensitivity ?? null,
      };
    });
    await sql`
      insert into sensor_states as ss (store_id, equipment_id, engine_state, status, alert_codes, last_measured_at, last_temperature, last_error, last_battery, last_receive_sensitivity, updated_at)
      select ${store.storeId}, r.equipment_id, r.engine_state, r.status, r.alert_codes, r.last_measured_at, r.last_temperature, r.last_error, r.last_battery, r.last_receive_sensitivity, ${now}
      from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(
        equipment_id int, engine_state jsonb, status smallint, alert_codes varchar(10)[], last_measured_at timestamptz,
        last_temperature real, last_error boolean, last_battery smallint, last_receive_sensitivity smallint)
      on conflict (store_id, equipment_id) do update set
        engine_state = excluded.engine_state,
        status = excluded.status,
        alert_codes = excluded.alert_codes,
        updated_at = excluded.updated_at,
        last_measured_at = case when ss.last_measured_at is null or excluded.last_measured_at > ss.last_measured_at then excluded.last_measured_at else ss.last_measured_at end,
        last_temperature = case when ss.last_measured_at is null or excluded.last_measured_at > ss.last_measured_at then excluded.last_temperature else ss.last_temperature end,
        last_error = case when ss.last_measured_at is null or excluded.last_measured_at > ss.last_measured_at then excluded.last_error else ss.last_error end,
        last_battery = case when ss.last_measured_at is null or excluded.last_measured_at > ss.last_measured_at then excluded.last_battery else ss.last_battery end,
        last_receive_sensitivity = case when ss.last_measured_at is null or excluded.last_measured_at > ss.last_measured_at then excluded.last_receive_sensitivity else ss.last_receive_sensitivity end
    `.execute(trx);
  }
  const changes = [
    ...storeChanges,
    ...evaluated.flatMap(({ sensor, evaluation }) =>
      evaluation.transitions.map((transition) => ({ equipmentId: sensor.equipmentId, equipmentName: sensor.equipmentName, transition })),
    ),
  ];
  await recordTransitions(trx, store, changes);
  await refreshStoreStatus(trx, store);
}

/** Recomputes the store's status from its working state, gateway and sensors' open alerts, and tells live screens. */
async function refreshStoreStatus(trx: Db, store: StoreForEvaluation): Promise<void> {
  const sensors = await trx.selectFrom('sensor_states').select('alert_codes').where('store_id', '=', store.storeId).execute();
  const status = storeStatus(store.workingState, store.gatewayDown, sensors.map((sensor) => ({ openCodes: sensor.alert_codes as never[] })));
  await trx.updateTable('stores').set({ store_status: status }).where('store_id', '=', store.storeId).where('store_status', '!=', status).execute();
  // Delivered at commit: live screens (server-sent events) refresh within seconds.
  await sql`select pg_notify('onreco_store', ${store.storeId})`.execute(trx);
}
