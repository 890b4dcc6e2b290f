import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { DefrostTime } from '~/domain/defrost';
import { toCompactDateTime } from '~/domain/japan-time';
import type { ReportSettingsPeriod } from '~/domain/report-document';
import type { MeasureTargetKind, SensorDetail, SensorListAnswer, SensorSave, UnregisteredSensor } from '~/domain/sensor-settings';
import { storeVisibleTo } from './stores.server';
import type { Viewer } from './users.server';

// Sensor settings (issue 12): the sensors show page's and GET /v1/equipments/list's rows, the
// sensor detail, the sensor save's writes, the settings history (DESIGN.md "Settings over time")
// and the BLE addresses a store's gateway hears that are not its sensors. Every read of a store's
// data goes through stores with the viewer's access in its where.

const compactDate = (value: string | null) => (value ? value.replaceAll('-', '').slice(0, 8) : null);

/** updated_at as exact text (microseconds), the token of the optimistic concurrency check. */
const updatedAtText = sql<string>`to_char(s.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Every sensor of the store (hidden and removed ones too), by location then id; null when the viewer may not see the store. */
export async function listSettingsSensors(db: Db, viewer: Viewer, storeId: string): Promise<SensorListAnswer | null> {
  const rows = await db
    .selectFrom('stores')
    .leftJoin('sensors as s', 's.store_id', 'stores.store_id')
    .leftJoin('sensor_states as ss', (join) => join.onRef('ss.store_id', '=', 's.store_id').onRef('ss.equipment_id', '=', 's.equipment_id'))
    .leftJoin('sensor_models as m', 'm.model_id', 's.model_id')
    .leftJoin('equipment_kinds as k', 'k.equipmentkind_id', 'm.equipmentkind_id')
    .leftJoin('measure_target_equipment_kinds as t', 't.measure_target_equipment_kind_id', 's.measure_target_equipment_kind_id')
    .select([
      'stores.store_id',
      'stores.store_name',
      's.equipment_id',
      's.equipment_name',
      's.disp_flg',
      's.lower_limit',
      's.upper_limit',
      's.guard_time',
      's.snoozing_time',
      's.serial_no',
      's.model_id',
      'm.model_name',
      'k.equipmentkind_name',
      's.installation_datetime',
      's.removal_datetime',
      'ss.last_measured_at',
      'ss.last_battery',
      'ss.last_receive_sensitivity',
      's.location_no',
      's.position_x',
      's.position_y',
      's.icon_kind',
      's.measure_target_equipment_kind_id',
      's.measure_target_serial_no',
      's.measure_target_name',
      't.measure_target_equipment_kind_name',
    ])
    .where('stores.store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .orderBy(sql`s.location_no asc nulls last`)
    .orderBy('s.equipment_id')
    .execute();
  if (rows.length === 0) return null;
  const equipments = rows.flatMap((row) =>
    row.equipment_id === null
      ? []
      : [
          {
            equipment_id: row.equipment_id,
            equipment_name: row.equipment_name!,
            disp_flg: row.disp_flg ?? 1,
            lower_limit: row.lower_limit,
            upper_limit: row.upper_limit,
            guard_time: row.guard_time,
            snoozing_time: row.snoozing_time,
            serial_no: row.serial_no!,
            model_id: row.model_id,
            model_name: row.model_name,
            equipmentkind_name: row.equipmentkind_name,
            installation_datetime: compactDate(row.installation_datetime),
            removal_datetime: compactDate(row.removal_datetime),
            last_measure_datetime: row.last_measured_at ? toCompactDateTime(row.last_measured_at) : null,
            last_battery: row.last_battery,
            last_receive_sensitivity: row.last_receive_sensitivity,
            location_no: row.location_no,
            position_x: row.position_x ?? 0,
            position_y: row.position_y ?? 0,
            icon_kind: row.icon_kind!,
            measure_target_equipment_kind_id: row.measure_target_equipment_kind_id,
            measure_target_serial_no: row.measure_target_serial_no,
            measure_target_name: row.measure_target_name,
            measure_target_equipment_kind_name: row.measure_target_equipment_kind_name,
          },
        ],
  );
  return { store_id: rows[0].store_id, store_name: rows[0].store_name, equipments };
}

/** One sensor's detail (001 §3 Sensor detail), or null when it does not exist or its store is not the viewer's. */
export async function getSensorDetail(db: Db, viewer: Viewer, equipmentId: number): Promise<SensorDetail | null> {
  const row = await db
    .selectFrom('sensors as s')
    .innerJoin('stores', 'stores.store_id', 's.store_id')
    .leftJoin('sensor_models as m', 'm.model_id', 's.model_id')
    .leftJoin('equipment_kinds as k', 'k.equipmentkind_id', 'm.equipmentkind_id')
    .leftJoin('measure_target_equipment_kinds as t', 't.measure_target_equipment_kind_id', 's.measure_target_equipment_kind_id')
    .select([
      's.equipment_id',
      's.equipment_name',
      's.icon_kind',
      's.guard_time',
      's.serial_no',
      's.snoozing_time',
      's.location_no',
      's.lower_limit',
      's.upper_limit',
      's.store_id',
      'm.equipmentkind_id',
      'k.equipmentkind_name',
      'm.model_name',
      's.installation_datetime',
      's.removal_datetime',
      's.measure_target_serial_no',
      's.measure_target_equipment_kind_id',
      't.measure_target_equipment_kind_name',
      's.time_constant',
      's.def_time',
      's.disp_flg',
      updatedAtText.as('updated_at'),
    ])
    .where('s.equipment_id', '=', equipmentId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
  if (!row) return null;
  return {
    ...row,
    equipmentkind_id: row.equipmentkind_id ?? null,
    equipmentkind_name: row.equipmentkind_name ?? null,
    model_name: row.model_name ?? null,
    measure_target_equipment_kind_name: row.measure_target_equipment_kind_name ?? null,
    installation_datetime: compactDate(row.installation_datetime),
    removal_datetime: compactDate(row.removal_datetime),
    time_constant: row.time_constant ?? 100,
    def_time: (row.def_time ?? []).map((range) => ({ start: range.start, end: range.end })),
    disp_flg: row.disp_flg ?? 0,
  };
}

/** The measured furniture kinds (GET /v1/measure_target_equipments). */
export async function listMeasureTargetKinds(db: Db): Promise<MeasureTargetKind[]> {
  return db.selectFrom('measure_target_equipment_kinds').select(['measure_target_equipment_kind_id', 'measure_target_equipment_kind_name']).orderBy('measure_target_equipment_kind_id').execute();
}

export async function measureTargetKindExists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('measure_target_equipment_kinds').select('measure_target_equipment_kind_id').where('measure_target_equipment_kind_id', '=', id).executeTakeFirst()) !== undefined;
}

/** The settings the history keeps, as stored. */
export interface SensorSettingsRow {
  lower_limit: number | null;
  upper_limit: number | null;
  guard_time: number | null;
  snoozing_time: number | null;
  time_constant: number | null;
  def_time: DefrostTime[];
}

/** The row under the save's lock (FOR UPDATE), with its concurrency token; null when not in that store. */
export async function lockSensorRow(trx: Db, storeId: string, equipmentId: number) {
  const row = await trx
    .selectFrom('sensors as s')
    .selectAll('s')
    .select(updatedAtText.as('updated_at_text'))
    .where('s.store_id', '=', storeId)
    .where('s.equipment_id', '=', equipmentId)
    .forUpdate()
    .executeTakeFirst();
  return row ?? null;
}

export async function serialTaken(db: Db, storeId: string, serialNo: string): Promise<boolean> {
  return (await db.selectFrom('sensors').select('equipment_id').where('store_id', '=', storeId).where('serial_no', '=', serialNo).executeTakeFirst()) !== undefined;
}

const writable = (input: SensorSave) => ({
  equipment_name: input.equipment_name,
  installation_datetime: input.installation_datetime,
  removal_datetime: input.removal_datetime,
  measure_target_equipment_kind_id: input.measure_target_equipment_kind_id,
  lower_limit: input.lower_limit,
  upper_limit: input.upper_limit,
  guard_time: input.guard_time,
  snoozing_time: input.snoozing_time,
  icon_kind: input.icon_kind,
  def_time: JSON.stringify(input.def_time),
  time_constant: input.time_constant,
  disp_flg: input.disp_flg,
});

/** A new sensor of the store; returns its id and concurrency token. */
export async function insertSensor(trx: Db, input: SensorSave & { serial_no: string }, now: Date): Promise<{ equipmentId: number; updatedAt: string }> {
  const row = await trx
    .insertInto('sensors')
    .values({ store_id: input.store_id, serial_no: input.serial_no, ...writable(input), created_at: now, updated_at: now })
    .returning(['equipment_id', sql<string>`to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('updated_at')])
    .executeTakeFirstOrThrow();
  return { equipmentId: row.equipment_id, updatedAt: row.updated_at };
}

/** The serials each of the stores has already. */
export async function serialsOfStores(db: Db, storeIds: readonly string[]): Promise<Map<string, Set<string>>> {
  const byStore = new Map<string, Set<string>>();
  if (storeIds.length === 0) return byStore;
  const rows = await db.selectFrom('sensors').select(['store_id', 'serial_no']).where('store_id', 'in', [...storeIds]).execute();
  for (const row of rows) byStore.set(row.store_id, (byStore.get(row.store_id) ?? new Set()).add(row.serial_no));
  return byStore;
}

/**
 * insertSensor of many sensors and their first settings period (recordSettingsChange of a new
 * sensor), in one statement over arrays (unnest), whatever their number. Returns each new id.
 */
export async function insertSensors(trx: Db, sensors: readonly (SensorSave & { serial_no: string })[], now: Date): Promise<{ store_id: string; serial_no: string; equipment_id: number }[]> {
  if (sensors.length === 0) return [];
  const rows = sensors.map((sensor) => ({ store_id: sensor.store_id, serial_no: sensor.serial_no, ...writable(sensor) }));
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((row) => row[key]);
  const { rows: created } = await sql<{ store_id: string; serial_no: string; equipment_id: number }>`
    with created as (
      insert into sensors (store_id, serial_no, equipment_name, installation_datetime, removal_datetime, measure_target_equipment_kind_id,
        lower_limit, upper_limit, guard_time, snoozing_time, icon_kind, def_time, time_constant, disp_flg, created_at, updated_at)
      select s.*, ${now}, ${now}
      from unnest(
        ${column('store_id')}::text[], ${column('serial_no')}::text[], ${column('equipment_name')}::text[], ${column('installation_datetime')}::date[],
        ${column('removal_datetime')}::date[], ${column('measure_target_equipment_kind_id')}::int2[], ${column('lower_limit')}::numeric[],
        ${column('upper_limit')}::numeric[], ${column('guard_time')}::int2[], ${column('snoozing_time')}::int2[], ${column('icon_kind')}::int2[],
        ${column('def_time')}::jsonb[], ${column('time_constant')}::int2[], ${column('disp_flg')}::int2[]
      ) as s
      returning store_id, equipment_id, serial_no, lower_limit, upper_limit, guard_time, snoozing_time, time_constant, def_time
    ), history as (
      insert into sensor_settings_history (store_id, equipment_id, effective_from, effective_to, lower_limit, upper_limit, guard_time, snoozing_time, time_constant, def_time)
      select store_id, equipment_id, ${now}, null, lower_limit, upper_limit, guard_time, snoozing_time, time_constant, def_time from created
    )
    select store_id, serial_no, equipment_id from created`.execute(trx);
  return created;
}

/** Writes the sensor's fields; returns the new concurrency token. */
export async function updateSensor(trx: Db, input: SensorSave & { equipment_id: number }, now: Date): Promise<string> {
  const row = await trx
    .updateTable('sensors')
    .set({ ...writable(input), updated_at: now })
    .where('store_id', '=', input.store_id)
    .where('equipment_id', '=', input.equipment_id)
    .returning(sql<string>`to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('updated_at'))
    .executeTakeFirstOrThrow();
  return row.updated_at;
}

/**
 * Records that `settings` are in force from `now`: the open period ends at `now` (a sensor
 * without history first gets one from its creation with `before`), and a new one opens.
 */
export async function recordSettingsChange(
  trx: Db,
  sensor: { storeId: string; equipmentId: number; createdAt: Date },
  before: SensorSettingsRow | null,
  settings: SensorSettingsRow,
  now: Date,
): Promise<void> {
  const closed = await trx
    .updateTable('sensor_settings_history')
    .set({ effective_to: now })
    .where('store_id', '=', sensor.storeId)
    .where('equipment_id', '=', sensor.equipmentId)
    .where('effective_to', 'is', null)
    .executeTakeFirst();
  const rows = [];
  if (Number(closed.numUpdatedRows) === 0 && before && sensor.createdAt < now) {
    const had = await trx.selectFrom('sensor_settings_history').select('effective_from').where('store_id', '=', sensor.storeId).where('equipment_id', '=', sensor.equipmentId).executeTakeFirst();
    if (!had) rows.push({ store_id: sensor.storeId, equipment_id: sensor.equipmentId, effective_from: sensor.createdAt, effective_to: now, ...historyValues(before) });
  }
  rows.push({ store_id: sensor.storeId, equipment_id: sensor.equipmentId, effective_from: now, effective_to: null, ...historyValues(settings) });
  await trx
    .insertInto('sensor_settings_history')
    .values(rows)
    .onConflict((oc) => oc.columns(['store_id', 'equipment_id', 'effective_from']).doUpdateSet((eb) => ({
      effective_to: eb.ref('excluded.effective_to'),
      lower_limit: eb.ref('excluded.lower_limit'),
      upper_limit: eb.ref('excluded.upper_limit'),
      guard_time: eb.ref('excluded.guard_time'),
      snoozing_time: eb.ref('excluded.snoozing_time'),
      time_constant: eb.ref('excluded.time_constant'),
      def_time: eb.ref('excluded.def_time'),
    })))
    .execute();
}

const historyValues = (settings: SensorSettingsRow) => ({
  lower_limit: settings.lower_limit,
  upper_limit: settings.upper_limit,
  guard_time: settings.guard_time,
  snoozing_time: settings.snoozing_time,
  time_constant: settings.time_constant,
  def_time: JSON.stringify(settings.def_time ?? []),
});

/** A period of a sensor's limits and defrost ranges (to null: still in force). */
export interface SettingsPeriod {
  equipmentId: number;
  from: Date;
  to: Date | null;
  lowerLimit: number | null;
  upperLimit: number | null;
  defrost: DefrostTime[];
}

/**
 * The settings in force during [from, to) of the store's sensors, oldest first per sensor. A
 * sensor without history (written before it was kept) reads its current settings for all time.
 * Only the store's own sensors: the caller has checked the viewer may see the store.
 */
export async function settingsInForce(db: Db, storeId: string, equipmentIds: readonly number[], from: Date, to: Date): Promise<SettingsPeriod[]> {
  if (equipmentIds.length === 0) return [];
  const history = await db
    .selectFrom('sensor_settings_history')
    .select(['equipment_id', 'effective_from', 'effective_to', 'lower_limit', 'upper_limit', 'def_time'])
    .where('store_id', '=', storeId)
    .where('equipment_id', 'in', [...equipmentIds])
    .where('effective_from', '<', to)
    .where((eb) => eb.or([eb('effective_to', 'is', null), eb('effective_to', '>', from)]))
    .orderBy('equipment_id')
    .orderBy('effective_from')
    .execute();
  const covered = new Set(history.map((row) => row.equipment_id));
  const missing = equipmentIds.filter((id) => !covered.has(id));
  const current = missing.length
    ? await db
        .selectFrom('sensors')
        .leftJoin('sensor_settings_history as h', (join) => join.onRef('h.store_id', '=', 'sensors.store_id').onRef('h.equipment_id', '=', 'sensors.equipment_id'))
        .select(['sensors.equipment_id', 'sensors.lower_limit', 'sensors.upper_limit', 'sensors.def_time'])
        .where('sensors.store_id', '=', storeId)
        .where('sensors.equipment_id', 'in', missing)
        .where('h.equipment_id', 'is', null)
        .execute()
    : [];
  const periods: SettingsPeriod[] = history.map((row) => ({
    equipmentId: row.equipment_id,
    from: row.effective_from,
    to: row.effective_to,
    lowerLimit: row.lower_limit,
    upperLimit: row.upper_limit,
    defrost: row.def_time ?? [],
  }));
  for (const row of current) periods.push({ equipmentId: row.equipment_id, from: new Date(0), to: null, lowerLimit: row.lower_limit, upperLimit: row.upper_limit, defrost: row.def_time ?? [] });
  return periods;
}

/**
 * The settings in force over [from, to) by sensor, each period clipped to it: what reports, the
 * HACCP record and their PDFs print (a limit changed mid-month shows as two periods).
 */
export async function settingsInForceBySensor(db: Db, storeId: string, equipmentIds: readonly number[], from: Date, to: Date): Promise<Map<number, ReportSettingsPeriod[]>> {
  const bySensor = new Map<number, ReportSettingsPeriod[]>();
  for (const period of await settingsInForce(db, storeId, equipmentIds, from, to)) {
    const clipped: ReportSettingsPeriod = {
      from: period.from > from ? period.from : from,
      to: period.to === null || period.to >= to ? null : period.to,
      lowerLimit: period.lowerLimit,
      upperLimit: period.upperLimit,
      defrost: period.defrost,
    };
    bySensor.set(period.equipmentId, [...(bySensor.get(period.equipmentId) ?? []), clipped]);
  }
  return bySensor;
}

// ---- heard, unregistered sensors ----------------------------------------------------------------

/** Keeps the latest report per address (an older heard_at never overwrites a newer one). Returns how many rows were written. */
export async function storeHeardSensors(
  db: Db,
  storeId: string,
  sensors: readonly { serialNo: string; format: string; temperature: number | null; receiveSensitivity: number | null; heardAt: Date }[],
  now: Date,
): Promise<number> {
  if (sensors.length === 0) return 0;
  const latest = new Map<string, (typeof sensors)[number]>();
  for (const sensor of sensors) {
    const seen = latest.get(sensor.serialNo);
    if (!seen || seen.heardAt < sensor.heardAt) latest.set(sensor.serialNo, sensor);
  }
  const result = await db
    .insertInto('heard_sensors')
    .values(
      [...latest.values()].map((sensor) => ({
        store_id: storeId,
        serial_no: sensor.serialNo,
        format: sensor.format,
        temperature: sensor.temperature === null ? null : Math.round(sensor.temperature * 10) / 10,
        receive_sensitivity: sensor.receiveSensitivity,
        heard_at: sensor.heardAt,
        reported_at: now,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['store_id', 'serial_no'])
        .doUpdateSet((eb) => ({
          format: eb.ref('excluded.format'),
          temperature: eb.ref('excluded.temperature'),
          receive_sensitivity: eb.ref('excluded.receive_sensitivity'),
          heard_at: eb.ref('excluded.heard_at'),
          reported_at: eb.ref('excluded.reported_at'),
        }))
        .whereRef('heard_sensors.heard_at', '<=', 'excluded.heard_at'),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** The addresses the store's gateway heard that are not its sensors, newest first; null when the viewer may not see the store. */
export async function listUnregisteredSensors(db: Db, viewer: Viewer, storeId: string): Promise<UnregisteredSensor[] | null> {
  const rows = await db
    .selectFrom('stores')
    .leftJoin('heard_sensors as h', (join) =>
      join.onRef('h.store_id', '=', 'stores.store_id').on((eb) => eb.not(eb.exists(eb.selectFrom('sensors as s').select(sql`1`.as('one')).whereRef('s.store_id', '=', 'h.store_id').whereRef('s.serial_no', '=', 'h.serial_no')))),
    )
    .select(['stores.store_id', 'h.serial_no', 'h.format', 'h.temperature', 'h.receive_sensitivity', 'h.heard_at'])
    .where('stores.store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .orderBy('h.heard_at', 'desc')
    .orderBy('h.serial_no')
    .execute();
  if (rows.length === 0) return null;
  return rows.flatMap((row) =>
    row.serial_no === null
      ? []
      : [{ serial_no: row.serial_no, format: row.format!, temperature: row.temperature, receive_sensitivity: row.receive_sensitivity, heard_at: toCompactDateTime(row.heard_at!) }],
  );
}
