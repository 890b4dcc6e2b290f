import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { type SensorAlertState, SensorAlertStateSchema, type SensorSettings, sensorAlertSummary } from '~/domain/alert-engine';
import { defrostRangesOf } from '~/domain/defrost';

// Each sensor's latest reading and alert-engine state (sensor_states), read with the sensor's
// settings for an evaluation and written back in one statement per store.

export interface SensorUnderEvaluation {
  equipmentId: number;
  equipmentName: string;
  serialNo: string;
  settings: SensorSettings;
  state: SensorAlertState;
}

/** The store's sensors with their settings in force and their engine state (a never-evaluated sensor starts empty). */
export async function loadSensorsForEvaluation(trx: Db, storeId: string, noCommunicationMinutes: number): Promise<SensorUnderEvaluation[]> {
  return (await loadStoresSensorsForEvaluation(trx, [storeId], noCommunicationMinutes)).get(storeId) ?? [];
}

/** loadSensorsForEvaluation for many stores in one statement, by store. */
export async function loadStoresSensorsForEvaluation(trx: Db, storeIds: readonly string[], noCommunicationMinutes: number): Promise<Map<string, SensorUnderEvaluation[]>> {
  const byStore = new Map<string, SensorUnderEvaluation[]>();
  if (storeIds.length === 0) return byStore;
  const rows = await trx
    .selectFrom('sensors as s')
    .leftJoin('sensor_states as ss', (join) => join.onRef('ss.store_id', '=', 's.store_id').onRef('ss.equipment_id', '=', 's.equipment_id'))
    .select(['s.store_id', 's.equipment_id', 's.equipment_name', 's.serial_no', 's.lower_limit', 's.upper_limit', 's.guard_time', 's.snoozing_time', 's.time_constant', 's.def_time', 'ss.engine_state'])
    .where('s.store_id', '=', sql<string>`any(${storeIds}::text[])`)
    .execute();
  for (const row of rows) {
    const sensor: SensorUnderEvaluation = {
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
    };
    const sensors = byStore.get(row.store_id);
    if (sensors) sensors.push(sensor);
    else byStore.set(row.store_id, [sensor]);
  }
  return byStore;
}

/** Locks the sensor's state row (take the store lock first); undefined when the sensor has never been evaluated. */
export async function lockSensorState(trx: Db, storeId: string, equipmentId: number): Promise<SensorAlertState | undefined> {
  const row = await trx
    .selectFrom('sensor_states')
    .select('engine_state')
    .where('store_id', '=', storeId)
    .where('equipment_id', '=', equipmentId)
    .forUpdate()
    .executeTakeFirst();
  return row && SensorAlertStateSchema.parse(row.engine_state ?? {});
}

export interface LatestReading {
  measuredAt: Date;
  temperature: number | null;
  error: boolean;
  battery: number | null;
  receiveSensitivity: number | null;
}

export interface SensorStateChange {
  equipmentId: number;
  state: SensorAlertState;
  /** The newest reading of the evaluation; kept only when newer than the stored one. Null: unchanged. */
  latest: LatestReading | null;
}

/**
 * Saves the sensors' engine state, status and open codes (derived from the state), and their
 * latest reading when it is newer than the stored one, in one statement.
 */
export async function saveSensorStates(trx: Db, storeId: string, changes: readonly SensorStateChange[], now: Date): Promise<void> {
  await saveStoresSensorStates(trx, [{ storeId, changes, now }]);
}

/** saveSensorStates for many stores in one statement (the ingest writer's batch); `now` is each store's updated_at. */
export async function saveStoresSensorStates(trx: Db, stores: readonly { storeId: string; changes: readonly SensorStateChange[]; now: Date }[]): Promise<void> {
  const records = stores.flatMap(({ storeId, changes, now }) =>
    changes.map(({ equipmentId, state, latest }) => {
      const summary = sensorAlertSummary(state);
      return {
        store_id: storeId,
        equipment_id: equipmentId,
        engine_state: state,
        status: summary.status,
        alert_codes: summary.openCodes,
        last_measured_at: latest?.measuredAt.toISOString() ?? null,
        last_temperature: latest?.temperature ?? null,
        last_error: latest?.error ?? false,
        last_battery: latest?.battery ?? null,
        last_receive_sensitivity: latest?.receiveSensitivity ?? null,
        updated_at: now.toISOString(),
      };
    }),
  );
  if (records.length === 0) return;
  await sql`
    insert into sensor_states as ss (store_id, equipment_id, engine_state, status, alert_codes, last_measured_at, last_temperature, last_error, last_battery, last_receive_sensitivity, updated_at)
    select r.store_id, r.equipment_id, r.engine_state, r.status, r.alert_codes, r.last_measured_at, r.last_temperature, r.last_error, r.last_battery, r.last_receive_sensitivity, r.updated_at
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(
      store_id text, equipment_id int, engine_state jsonb, status smallint, alert_codes varchar(10)[], last_measured_at timestamptz,
      last_temperature real, last_error boolean, last_battery smallint, last_receive_sensitivity smallint, updated_at timestamptz)
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

/**
 * The operating stores the no-communication check must look at, in one indexed query: the
 * gateway silent since `silentSince`, or a sensor silent since then, or one already alerting
 * on no communication (for re-notification).
 */
export async function findStoresToCheckForSilence(db: Db, silentSince: Date): Promise<string[]> {
  // Two statements rather than a correlated EXISTS from the reference table `stores` into the
  // distributed `sensor_states`: Citus refuses that join shape (decision 301).
  const silentSensors = await db
    .selectFrom('sensor_states as ss')
    .select('ss.store_id')
    .distinct()
    .where((inner) => inner.or([inner('ss.last_measured_at', '<', silentSince), inner(sql`'OE00000005'`, '=', sql`any(ss.alert_codes)`)]))
    .execute();
  const storeIds = silentSensors.map((row) => row.store_id);
  const rows = await db
    .selectFrom('stores')
    .select('stores.store_id')
    .where('stores.working_state', '=', 1)
    .where((eb) => {
      const gatewaySilent = eb('stores.last_gateway_contact_at', '<', silentSince);
      return storeIds.length === 0 ? gatewaySilent : eb.or([gatewaySilent, eb('stores.store_id', '=', sql<string>`any(${storeIds}::text[])`)]);
    })
    .execute();
  return rows.map((row) => row.store_id);
}
