import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { SensorLabel } from '~/domain/sensor-view';
import { CSV_BOM, csvLine } from '~/domain/csv';
import { defrostRangesOf } from '~/domain/defrost';
import {
  COMMENT_SNAP_MINUTES,
  type GraphPanelView,
  type GraphSeries,
  type SeriesPoint,
  seriesView,
  type PanelState,
  alertStopRangesInPeriod,
  axisRange,
  defrostInSpans,
  graphPeriod,
  limitStepsInPeriod,
  type SettingsSpan,
  stepThresholdBands,
  periodLabel,
  shadesDefrost,
  shiftPeriod,
  thresholdBands,
  type CsvReading,
  type GraphPeriod,
  measurementCsvRow,
  MEASUREMENT_CSV_HEADER,
  bucketWindow,
  sensorColour,
  slotOfReading,
} from '~/domain/graph';
import type { AlertStopSchedule } from '~/domain/alert-stop-schedule';
import { type DayRange, toCompactDateTime } from '~/domain/japan-time';
import { graphRetentionNotice, type RetentionPolicy } from '~/domain/retention';
import { audit } from './audit.server';
import { sensorReadings } from './measurements.server';
import { settingsInForce } from './sensor-settings.server';
import { storeVisibleTo, visibleStoreExists } from './stores.server';
import type { Viewer } from './users.server';

// The temperature graphs' data: the store's sensors for the side menu, the bucketed series of
// the checked sensors (averaged in SQL over the measurements' primary key, one query for all of
// them), the comments on readings, and the measurement CSV. Every query carries the viewer's
// access to the store in its where.

export interface GraphSensor extends SensorLabel {
  commentRequired: boolean;
  /** From the fixed palette by the sensor's place in the store's order. */
  colour: string;
  /** Daily defrost ranges (def_time), minutes since Japan midnight. */
  defrost: DayRange[];
}

/**
 * The store's displayed sensors (disp_flg 1) in the default order (000 §9: lower limit
 * ascending, then location number, then id), each with its palette colour. null when the
 * store does not exist or the viewer may not see it.
 */
export async function listGraphSensors(db: Db, viewer: Viewer, storeId: string): Promise<GraphSensor[] | null> {
  const rows = await db
    .selectFrom('stores')
    .leftJoin('sensors as s', (join) => join.onRef('s.store_id', '=', 'stores.store_id').on('s.disp_flg', '=', 1))
    .select(['s.equipment_id', 's.equipment_name', 's.icon_kind', 's.location_no', 's.lower_limit', 's.upper_limit', 's.comment_required', 's.def_time'])
    .where('stores.store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .orderBy(sql`s.lower_limit asc nulls last`)
    .orderBy(sql`coalesce(s.location_no, 0)`)
    .orderBy('s.equipment_id')
    .execute();
  if (rows.length === 0) return null;
  return rows
    .filter((row) => row.equipment_id !== null)
    .map((row, index) => ({
      equipmentId: row.equipment_id!,
      equipmentName: row.equipment_name!,
      iconKind: row.icon_kind!,
      locationNo: row.location_no,
      lowerLimit: row.lower_limit,
      upperLimit: row.upper_limit,
      commentRequired: row.comment_required === 1,
      colour: sensorColour(index),
      defrost: defrostRangesOf(row.def_time),
    }));
}

/**
 * The series of the checked sensors over a period, from the 10-minute buckets that a trigger
 * keeps beside the readings (each reading rounded to the nearest 10 minutes, 000 §9): a day
 * shows them as they are (144 slots), a week rounds them again to 30 minutes (336), a month to
 * the hour (≤ 744). A slot's value is the average of its readings to 0.1 °C (error readings
 * left out). ONE query over the buckets' key (store_id, equipment_id, bucket) for all sensors,
 * grouped in SQL. The comments of the period come in a second, small query on their own key.
 */
export async function readGraphSeries(db: Db, viewer: Viewer, input: { storeId: string; equipmentIds: readonly number[]; period: GraphPeriod }): Promise<GraphSeries[]> {
  const { storeId, equipmentIds, period } = input;
  if (equipmentIds.length === 0) return [];
  const { from, to } = bucketWindow(period);
  // Comments are on readings: a little wider than the buckets, then kept by their slot.
  const margin = 10 * 60_000;
  const ids = [...equipmentIds];
  // The slots' values grouped, then one row a sensor with its points as JSON: a month of 20
  // sensors is 20 rows, not 14,880 (no Date parsed, one JSON.parse a sensor).
  const slots = db
    .selectFrom('measurement_buckets as b')
    .select([
      'b.equipment_id',
      // A 10-minute bucket rounded again to the period's step (half-way up), on the grid of the period start.
      sql<Date>`date_bin(${`${period.stepMinutes} minutes`}::interval, b.bucket + ${`${period.stepMinutes * 30} seconds`}::interval, ${period.since}::timestamptz)`.as('slot_time'),
      sql<number>`round((sum(b.temperature_sum) / sum(b.temperature_count))::numeric, 1)`.as('temperature'),
    ])
    .where('b.store_id', '=', storeId)
    .where('b.equipment_id', '=', sql<number>`any(${ids}::int[])`)
    .where('b.temperature_count', '>', 0) // buckets of error readings only (kept for reports) have no average
    .where('b.bucket', '>=', from)
    .where('b.bucket', '<', to)
    .where(visibleStoreExists(viewer, storeId))
    .groupBy(['b.equipment_id', sql`2`]);
  const [buckets, comments] = await Promise.all([
    db
      .selectFrom(slots.as('s'))
      .select([
        's.equipment_id',
        // slotOf in SQL: the slot's distance from the period start in steps (date_part is a double, exact here)
        sql<SeriesPoint[]>`json_agg(json_build_array(((date_part('epoch', s.slot_time) - ${period.since.getTime() / 1000}) / ${period.stepMinutes * 60})::int, s.temperature) order by s.slot_time)`.as('points'),
      ])
      .groupBy('s.equipment_id')
      .execute(),
    db
      .selectFrom('measurement_comments as c')
      .select(['c.equipment_id', 'c.measured_at', 'c.comment'])
      .where('c.store_id', '=', storeId)
      .where('c.equipment_id', '=', sql<number>`any(${ids}::int[])`)
      .where('c.measured_at', '>=', new Date(from.getTime() - margin))
      .where('c.measured_at', '<', new Date(to.getTime() + margin))
      .where(visibleStoreExists(viewer, storeId))
      .orderBy('c.measured_at')
      .execute(),
  ]);
  const series = new Map<number, GraphSeries>(ids.map((id) => [id, { equipmentId: id, points: [], comments: [] }]));
  for (const row of buckets) series.get(row.equipment_id)!.points = row.points;
  for (const row of comments) {
    const slot = slotOfReading(period, row.measured_at);
    if (slot < 0 || slot >= period.slotCount) continue;
    series.get(row.equipment_id)?.comments.push({ slot, startDate: toCompactDateTime(row.measured_at), comment: row.comment });
  }
  return [...series.values()];
}

/**
 * One panel: the checked sensors of the store (every displayed sensor when the URL names none;
 * ids that are not the store's displayed sensors are dropped), their series, defrost ranges and
 * the store's alert-stop windows over the period, and the y-axis (000 §9).
 */
export async function loadGraphPanel(
  db: Db,
  viewer: Viewer,
  input: { storeId: string; sensors: readonly GraphSensor[]; panel: PanelState; schedules: readonly AlertStopSchedule[]; today: string; retention: RetentionPolicy },
): Promise<GraphPanelView> {
  const { sensors, panel } = input;
  const period = graphPeriod(panel.unit, panel.date);
  const wanted = panel.equipmentIds === null ? null : new Set(panel.equipmentIds);
  const shown = sensors.filter((sensor) => wanted === null || wanted.has(sensor.equipmentId));
  const selected = shown.map((sensor) => sensor.equipmentId);
  const series = await readGraphSeries(db, viewer, { storeId: input.storeId, equipmentIds: selected, period });
  // The limits and defrost ranges in force at each moment (DESIGN.md "Settings over time"), not today's.
  const spans = await settingsSpans(db, input.storeId, selected, period);
  const limitSteps = shown.length === 1 ? limitStepsInPeriod(spans.get(shown[0].equipmentId) ?? [], period) : [];
  const bands = shown.length === 1 ? stepThresholdBands(limitSteps) : thresholdBands(shown);
  const limits = [...new Set(limitSteps.flatMap((step) => [step.lower, step.upper]).filter((limit): limit is number => limit !== null))];
  const nextDate = shiftPeriod(period, 1);
  return {
    unit: panel.unit,
    date: panel.date,
    startDate: period.startDate,
    label: periodLabel(period),
    previousDate: shiftPeriod(period, -1),
    nextDate: nextDate <= input.today ? nextDate : null,
    sinceMs: period.since.getTime(),
    stepMinutes: period.stepMinutes,
    slotCount: period.slotCount,
    selected,
    series: series.map(seriesView),
    defrost: shadesDefrost(period.unit, shown.length)
      ? shown
          .map((sensor) => ({ equipmentId: sensor.equipmentId, ranges: defrostInSpans(spans.get(sensor.equipmentId) ?? [], period) }))
          .filter((sensor) => sensor.ranges.length > 0)
      : [],
    alertStops: alertStopRangesInPeriod(input.schedules, selected, period),
    yRange: axisRange([...series.flatMap((s) => s.points.map(([, value]) => value)), ...limits]),
    thresholdBands: bands,
    limits,
    limitSteps,
    retention: graphRetentionNotice({ from: period.since, to: period.until }, input.retention),
  };
}

/** Each sensor's settings periods over the graph's period (settingsInForce), defrost ranges parsed. */
async function settingsSpans(db: Db, storeId: string, equipmentIds: readonly number[], period: GraphPeriod): Promise<Map<number, SettingsSpan[]>> {
  const spans = new Map<number, SettingsSpan[]>();
  for (const row of await settingsInForce(db, storeId, equipmentIds, period.since, period.until)) {
    const list = spans.get(row.equipmentId) ?? [];
    list.push({ from: row.from, to: row.to, lowerLimit: row.lowerLimit, upperLimit: row.upperLimit, defrost: defrostRangesOf(row.defrost) });
    spans.set(row.equipmentId, list);
  }
  return spans;
}

// ---- comments ----------------------------------------------------------------------------------

export type CommentOutcome =
  | { ok: true; equipmentId: number; measuredAt: Date; comment: string | null }
  | { ok: false; reason: 'not_found' | 'not_allowed' | 'no_reading' };

/**
 * Registers (or, with an empty text, removes) the comment on a reading (000 §5: only for a
 * sensor with comment_required = 1). `at` names the reading: the sensor's reading nearest to it
 * within 5 minutes, so a click on a graph point (a rounded time) finds the reading it shows.
 * With storeId, the sensor must belong to that store (the page's own store).
 */
export async function saveMeasurementComment(
  db: Db,
  viewer: Viewer,
  input: { equipmentId: number; at: Date; comment: string; storeId?: string },
): Promise<CommentOutcome> {
  let sensorQuery = db
    .selectFrom('sensors as s')
    .innerJoin('stores', 'stores.store_id', 's.store_id')
    .select(['s.store_id', 's.equipment_id', 's.comment_required'])
    .where('s.equipment_id', '=', input.equipmentId)
    .where(storeVisibleTo(viewer));
  if (input.storeId !== undefined) sensorQuery = sensorQuery.where('s.store_id', '=', input.storeId);
  const sensor = await sensorQuery.executeTakeFirst();
  if (!sensor) return { ok: false, reason: 'not_found' };
  if (sensor.comment_required !== 1) return { ok: false, reason: 'not_allowed' };
  const snap = COMMENT_SNAP_MINUTES * 60_000;
  const reading = await db
    .selectFrom('measurements')
    .select('measured_at')
    .where('store_id', '=', sensor.store_id)
    .where('equipment_id', '=', sensor.equipment_id)
    .where('measured_at', '>=', new Date(input.at.getTime() - snap))
    .where('measured_at', '<=', new Date(input.at.getTime() + snap))
    .orderBy(sql`abs(extract(epoch from measured_at - ${input.at}::timestamptz))`)
    .orderBy('measured_at')
    .limit(1)
    .executeTakeFirst();
  if (!reading) return { ok: false, reason: 'no_reading' };
  const key = { store_id: sensor.store_id, equipment_id: sensor.equipment_id, measured_at: reading.measured_at };
  const comment = input.comment === '' ? null : input.comment;
  // A comment explains a reading in HACCP records, so who changed it and from what is audited
  // (issue 30), in the transaction of the change; the row is locked so `before` is the one replaced.
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('measurement_comments')
      .select('comment')
      .where('store_id', '=', key.store_id)
      .where('equipment_id', '=', key.equipment_id)
      .where('measured_at', '=', key.measured_at)
      .forUpdate()
      .executeTakeFirst();
    if (comment === null) {
      if (!before) return;
      await trx
        .deleteFrom('measurement_comments')
        .where('store_id', '=', key.store_id)
        .where('equipment_id', '=', key.equipment_id)
        .where('measured_at', '=', key.measured_at)
        .execute();
    } else {
      await trx
        .insertInto('measurement_comments')
        .values({ ...key, comment, user_id: viewer.userId })
        .onConflict((oc) => oc.columns(['store_id', 'equipment_id', 'measured_at']).doUpdateSet({ comment, user_id: viewer.userId, created_at: sql`now()` }))
        .execute();
    }
    await audit(trx, {
      userId: viewer.userId,
      action: comment === null ? 'measurement_comment.remove' : 'measurement_comment.save',
      targetType: 'sensor',
      targetId: key.equipment_id,
      storeId: key.store_id,
      details: { measured_at: toCompactDateTime(key.measured_at), before: before ? { comment: before.comment } : null, after: comment === null ? null : { comment } },
    });
  });
  return { ok: true, equipmentId: sensor.equipment_id, measuredAt: reading.measured_at, comment };
}

// ---- CSV ---------------------------------------------------------------------------------------

export interface CsvSensor {
  storeId: string;
  equipmentId: number;
  equipmentName: string;
}

/**
 * The sensors of a CSV, in the order asked. null when one of them does not exist or the viewer
 * may not see it (or, with storeId, it is not that store's): the whole request is refused, so
 * nothing leaks.
 */
export async function resolveCsvSensors(db: Db, viewer: Viewer, equipmentIds: readonly number[], storeId?: string): Promise<CsvSensor[] | null> {
  let query = db
    .selectFrom('sensors as s')
    .innerJoin('stores', 'stores.store_id', 's.store_id')
    .select(['s.store_id as storeId', 's.equipment_id as equipmentId', 's.equipment_name as equipmentName'])
    .where('s.equipment_id', '=', sql<number>`any(${[...equipmentIds]}::int[])`)
    .where(storeVisibleTo(viewer));
  if (storeId !== undefined) query = query.where('s.store_id', '=', storeId);
  const rows = await query.execute();
  const byId = new Map(rows.map((row) => [row.equipmentId, row]));
  const sensors = equipmentIds.map((id) => byId.get(id));
  return sensors.every((sensor) => sensor !== undefined) ? (sensors as CsvSensor[]) : null;
}

/** Rows a CSV page reads at once (keyset on the primary key). */
const CSV_PAGE_ROWS = 5_000;

/**
 * The CSV's text, a page at a time: the header, then each sensor's readings from `since` to
 * `until` (both inclusive) oldest first, with their comments. Each page is one range read of
 * the primary key after the last reading of the previous page, so memory stays flat whatever
 * the range. A notice (the period beyond retention) is a line of its own under the header.
 */
export async function* measurementCsvChunks(db: Db, viewer: Viewer, sensors: readonly CsvSensor[], range: { since: Date; until: Date }, notice: string | null = null): AsyncGenerator<string> {
  yield csvLine(MEASUREMENT_CSV_HEADER);
  if (notice !== null) yield csvLine([notice]);
  for (const sensor of sensors) {
    let after: Date | null = null;
    for (;;) {
      let query = sensorReadings(db, sensor.storeId, sensor.equipmentId)
        .where('m.measured_at', '<=', range.until)
        .where(visibleStoreExists(viewer, sensor.storeId))
        .orderBy('m.measured_at')
        .limit(CSV_PAGE_ROWS);
      query = after ? query.where('m.measured_at', '>', after) : query.where('m.measured_at', '>=', range.since);
      const rows = await query.execute();
      if (rows.length === 0) break;
      let text = '';
      for (const row of rows) {
        const reading: CsvReading = {
          measuredAt: row.measured_at,
          temperature: row.temperature,
          error: row.error,
          battery: row.battery,
          receiveSensitivity: row.receive_sensitivity,
          comment: row.comment,
        };
        text += csvLine(measurementCsvRow(sensor, reading));
      }
      yield text;
      if (rows.length < CSV_PAGE_ROWS) break;
      after = rows[rows.length - 1].measured_at;
    }
  }
}

/** The CSV as bytes: the UTF-8 byte order mark (so that Excel reads the Japanese text), then the chunks. */
export function csvByteStream(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM));
    },
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
