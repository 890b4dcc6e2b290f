import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { type AlertCode } from '~/domain/alert-codes';
import { SensorAlertStateSchema, sensorAlertSummary } from '~/domain/alert-engine';
import { defrostRangesOf, isInDefrost } from '~/domain/defrost';
import { roundTenth } from '~/domain/format';
import { japanMinuteOfDay, startOfJapanDay, toCompactDateTime } from '~/domain/japan-time';
import type { SensorTemperature } from '~/domain/levels';
import type { MeasurementRange } from '~/domain/sensor-schemas';
import { asSensorStatus } from '~/domain/sensor-status';
import { type SensorStatus, type SparkPoint, readingTemperature, sensorAlertCodes } from '~/domain/sensor-view';
import { storeVisibleTo } from './stores.server';
import type { Viewer } from './users.server';

// Reads of a sensor's measurements for GET /v1/equipments/measurement and the sensor views.
// Every read goes through the sensor's store and the viewer's access; measurements are read by
// their primary key (store_id, equipment_id, measured_at) in a bounded range.

export interface MeasurementPoint {
  temperature: SensorTemperature;
  battery: number | null;
  receive_sensitivity: number | null;
  /** YYYYMMDDHHmmss, Japan time. */
  start_date: string;
  comment: string | null;
  comment_required: number;
}

export interface SensorMeasurements {
  status: SensorStatus;
  alerts: { alert_id: AlertCode }[];
  measurement_data: MeasurementPoint[];
}

/** Pending temperature codes (guard time running) kept in the engine state; [] when it cannot be read. */
export function pendingCodesOf(engineState: unknown): AlertCode[] {
  const parsed = SensorAlertStateSchema.safeParse(engineState ?? {});
  return parsed.success ? sensorAlertSummary(parsed.data).pendingCodes : [];
}


/** A sensor's live state, read beside the sensor (sensor_states joined as `ss`). */
export const SENSOR_STATE_COLUMNS = [
  'ss.status',
  'ss.alert_codes',
  'ss.engine_state',
  'ss.last_measured_at',
  'ss.last_temperature',
  'ss.last_error',
  'ss.last_battery',
  'ss.last_receive_sensitivity',
] as const;

/** One sensor's readings with their point comments (the caller adds the range, order and limit). */
export function sensorReadings(db: Db, storeId: string, equipmentId: number) {
  return db
    .selectFrom('measurements as m')
    .leftJoin('measurement_comments as c', (join) =>
      join.onRef('c.store_id', '=', 'm.store_id').onRef('c.equipment_id', '=', 'm.equipment_id').onRef('c.measured_at', '=', 'm.measured_at'),
    )
    .select(['m.measured_at', 'm.temperature', 'm.error', 'm.battery', 'm.receive_sensitivity', 'c.comment'])
    .where('m.store_id', '=', storeId)
    .where('m.equipment_id', '=', equipmentId);
}

/** The visible sensor with its settings and live state, or undefined. */
function sensorWithState(db: Db, viewer: Viewer, equipmentId: number) {
  return db
    .selectFrom('sensors as s')
    .innerJoin('stores', 'stores.store_id', 's.store_id')
    .leftJoin('sensor_states as ss', (join) => join.onRef('ss.store_id', '=', 's.store_id').onRef('ss.equipment_id', '=', 's.equipment_id'))
    .select([
      's.store_id',
      's.equipment_id',
      's.def_time',
      's.comment_required',
      ...SENSOR_STATE_COLUMNS,
    ])
    .where('s.equipment_id', '=', equipmentId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
}

/**
 * GET /v1/equipments/measurement: the sensor's status and alerts (open and pending) and its
 * readings in the range, oldest first, or only the latest one. With convertDef, readings
 * inside the sensor's defrost ranges read DEF. null when the viewer may not see the sensor.
 */
export async function readMeasurements(
  db: Db,
  viewer: Viewer,
  input: { equipmentId: number; range: MeasurementRange; convertDef: boolean },
): Promise<SensorMeasurements | null> {
  const sensor = await sensorWithState(db, viewer, input.equipmentId);
  if (!sensor) return null;
  const ranges = defrostRangesOf(sensor.def_time);
  const point = (row: { measured_at: Date; temperature: number | null; error: boolean | null; battery: number | null; receive_sensitivity: number | null; comment: string | null }): MeasurementPoint => ({
    temperature: readingTemperature({ temperature: row.temperature, error: row.error ?? false }, isInDefrost(ranges, row.measured_at), input.convertDef),
    battery: row.battery,
    receive_sensitivity: row.receive_sensitivity,
    start_date: toCompactDateTime(row.measured_at),
    comment: row.comment,
    comment_required: sensor.comment_required,
  });
  let data: MeasurementPoint[];
  if (input.range.latestOnly) {
    // sensor_states keeps the latest reading by measured_at: no scan of the partitions.
    if (!sensor.last_measured_at) {
      data = [];
    } else {
      const comment = await db
        .selectFrom('measurement_comments')
        .select('comment')
        .where('store_id', '=', sensor.store_id)
        .where('equipment_id', '=', sensor.equipment_id)
        .where('measured_at', '=', sensor.last_measured_at)
        .executeTakeFirst();
      data = [
        point({
          measured_at: sensor.last_measured_at,
          temperature: sensor.last_temperature,
          error: sensor.last_error,
          battery: sensor.last_battery,
          receive_sensitivity: sensor.last_receive_sensitivity,
          comment: comment?.comment ?? null,
        }),
      ];
    }
  } else {
    const rows = await sensorReadings(db, sensor.store_id, sensor.equipment_id)
      .where('m.measured_at', '>=', input.range.since)
      .where('m.measured_at', '<=', input.range.until)
      .orderBy('m.measured_at')
      .execute();
    data = rows.map(point);
  }
  return {
    status: asSensorStatus(sensor.status),
    alerts: sensorAlertCodes(sensor.alert_codes ?? [], pendingCodesOf(sensor.engine_state)).map((alert_id) => ({ alert_id })),
    measurement_data: data,
  };
}

/** Bucket of the popup's sparkline: one point per 10 minutes (at most 144 a day). */
export const SPARK_BUCKET_MINUTES = 10;

/**
 * A day's readings of one sensor for a sparkline: the average temperature per 10 minutes from
 * Japan midnight to `now` (error readings left out). One indexed range read of at most 1,440 rows.
 */
export async function dayTemperatureBuckets(db: Db, sensor: { storeId: string; equipmentId: number }, now: Date): Promise<SparkPoint[]> {
  const dayStart = startOfJapanDay(now);
  const bucket = sql<Date>`date_bin(${`${SPARK_BUCKET_MINUTES} minutes`}::interval, m.measured_at, ${dayStart}::timestamptz)`;
  const rows = await db
    .selectFrom('measurements as m')
    .select([bucket.as('bucket'), sql<number>`avg(m.temperature)::float8`.as('temperature')])
    .where('m.store_id', '=', sensor.storeId)
    .where('m.equipment_id', '=', sensor.equipmentId)
    .where('m.measured_at', '>=', dayStart)
    .where('m.measured_at', '<=', now)
    .where('m.error', '=', false)
    .where('m.temperature', 'is not', null)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
  return rows.map((row) => ({ minute: japanMinuteOfDay(row.bucket), temperature: roundTenth(row.temperature) }));
}

// ---- ingest ----------------------------------------------------------------------------------

export interface NewMeasurement {
  equipmentId: number;
  measuredAt: Date;
  temperature: number | null;
  error: boolean;
  battery: number | null;
  receiveSensitivity: number | null;
}

/**
 * Stores a store's batch in one INSERT … SELECT FROM unnest; a repeat of (sensor, measured_at),
 * in the table or earlier in the batch, is skipped. Returns the measurements that were new.
 * The columns go as array literals built here and the answer is only the positions skipped
 * (none, mostly): per-element parameters and a row back per reading cost more than the insert
 * itself (docs/decisions/182). The caller adds the readings returned to their buckets
 * (addToBuckets, once for a whole ingest batch: docs/decisions/283).
 */
export async function insertMeasurements(trx: Db, storeId: string, rows: readonly NewMeasurement[], receivedAt: Date): Promise<readonly NewMeasurement[]> {
  const [stored] = await insertStoresMeasurements(trx, [{ storeId, rows, receivedAt }]);
  return stored;
}

/** A part of an ingest batch: one post's readings for its store. */
export interface MeasurementsOfStore {
  storeId: string;
  rows: readonly NewMeasurement[];
  receivedAt: Date;
}

/**
 * insertMeasurements for many posts in one statement (the ingest writer's batch); the answer has
 * each part's new measurements, in the parts' order. A repeat in a later part of the same store
 * is skipped as a repeat within one part is.
 */
export async function insertStoresMeasurements(trx: Db, parts: readonly MeasurementsOfStore[]): Promise<(readonly NewMeasurement[])[]> {
  const all = parts.flatMap((part) => part.rows);
  if (all.length === 0) return parts.map(() => []);
  const columns = arrayLiterals(all);
  const partOfRow = `{${parts.flatMap((part, index) => part.rows.map(() => index + 1)).join(',')}}`;
  const { rows: answer } = await sql<{ skipped: number[] }>`
    with r as (
      -- the store and arrival of each row by subscript, not a join: r stays in the batch's order
      select (${parts.map((part) => part.storeId)}::text[])[r.part] as store_id, (${parts.map((part) => part.receivedAt.toISOString())}::timestamptz[])[r.part] as received_at, r.*
        from unnest(${partOfRow}::int[], ${columns.equipmentIds}::int[], ${columns.epochSeconds}::float8[], ${columns.temperatures}::real[],
        ${columns.errors}::boolean[], ${columns.batteries}::smallint[], ${columns.sensitivities}::smallint[])
        with ordinality as r(part, equipment_id, epoch, temperature, error, battery, receive_sensitivity, position)
    ), stored as (
      insert into measurements (store_id, equipment_id, measured_at, temperature, error, battery, receive_sensitivity, received_at)
      select store_id, equipment_id, to_timestamp(epoch), temperature, error, battery, receive_sensitivity, received_at from r
      on conflict do nothing
      returning store_id, equipment_id, measured_at
    )
    select case when (select count(*) from stored) = ${all.length} then '{}'::int[] else array(
      select position from r
      except
      -- the first of a repeat in the batch is the one inserted (r is read in order)
      select min(position) from r join stored s on s.store_id = r.store_id and s.equipment_id = r.equipment_id and s.measured_at = to_timestamp(r.epoch)
      group by r.store_id, r.equipment_id, r.epoch
    ) end as skipped`.execute(trx);
  const gone = new Set(answer[0].skipped.map((position) => position - 1));
  let offset = 0;
  return parts.map((part) => {
    const start = offset;
    offset += part.rows.length;
    return gone.size === 0 ? part.rows : part.rows.filter((_, index) => !gone.has(start + index));
  });
}

/** PostgreSQL array literals of the batch's columns (numbers and booleans only: nothing to quote); times as epoch seconds. */
function arrayLiterals(rows: readonly NewMeasurement[]) {
  const equipmentIds: number[] = [];
  const epochSeconds: number[] = [];
  const temperatures: string[] = [];
  const errors: string[] = [];
  const batteries: string[] = [];
  const sensitivities: string[] = [];
  const orNull = (value: number | null) => (value === null ? 'NULL' : String(value));
  for (const row of rows) {
    equipmentIds.push(row.equipmentId);
    epochSeconds.push(row.measuredAt.getTime() / 1000);
    temperatures.push(orNull(row.temperature));
    errors.push(row.error ? 't' : 'f');
    batteries.push(orNull(row.battery));
    sensitivities.push(orNull(row.receiveSensitivity));
  }
  const literal = (values: readonly (number | string)[]) => `{${values.join(',')}}`;
  return {
    equipmentIds: literal(equipmentIds),
    epochSeconds: literal(epochSeconds),
    temperatures: literal(temperatures),
    errors: literal(errors),
    batteries: literal(batteries),
    sensitivities: literal(sensitivities),
  };
}

/** Removes the comments on readings before `before` (they go with the graphs' buckets, retention.server.ts). */
export async function deleteCommentsBefore(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('measurement_comments').where('measured_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
